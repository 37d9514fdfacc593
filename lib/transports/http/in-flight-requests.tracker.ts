/**
 * Counts the requests the endpoint is answering, so that shutdown can wait for them to be
 * answered (their responses written) before the HTTP server closes. Streams that last as
 * long as the client wants (a 2025 session's GET stream, a `subscriptions/listen` stream)
 * are released as soon as they are recognised: shutdown ends them instead of waiting.
 */
export class InFlightRequests {
  private count = 0;
  /** Who waits for the count to reach zero (shutdown; more than one when it is called twice). */
  private readonly waiting = new Set<() => void>();

  /** Counts one request; the returned function releases it (once, however often called). */
  enter(): () => void {
    this.count += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count -= 1;
      if (this.count > 0) return;
      for (const idle of this.waiting) idle();
      this.waiting.clear();
    };
  }

  get size(): number {
    return this.count;
  }

  /** Resolves `true` once none is left, or `false` when `timeoutMs` passes first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(idle);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.waiting.add(idle);
    });
  }
}
