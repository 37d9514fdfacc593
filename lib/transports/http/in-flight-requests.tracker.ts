/**
 * Counts the requests the endpoint is answering, so that shutdown can wait for them to be
 * answered (their responses written) before the HTTP server closes. Streams that last as
 * long as the client wants (a 2025 session's GET stream, a `subscriptions/listen` stream)
 * are released as soon as they are recognised: shutdown ends them instead of waiting.
 * Those still in flight when the wait is over are cut off (`cutOff`): each is answered
 * with an error and its call aborted, so that the HTTP server can close.
 */
export class InFlightRequests {
  /** What to do with each request still in flight when shutdown stops waiting for it. */
  private readonly requests = new Set<() => void>();
  /** Who waits for the count to reach zero (shutdown; more than one when it is called twice). */
  private readonly waiting = new Set<() => void>();

  /**
   * Counts one request; the returned function releases it (once, however often called).
   * @param cutOff answers the request with an error and aborts its call (see `cutOff()`)
   */
  enter(cutOff: () => void = () => undefined): () => void {
    // A function of its own per request: the same `cutOff` may not stand for two.
    const entry = () => cutOff();
    this.requests.add(entry);
    return () => {
      if (!this.requests.delete(entry) || this.requests.size > 0) return;
      for (const idle of this.waiting) idle();
      this.waiting.clear();
    };
  }

  get size(): number {
    return this.requests.size;
  }

  /** Resolves `true` once none is left, or `false` when `timeoutMs` passes first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.requests.size === 0) return Promise.resolve(true);
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

  /**
   * Cuts off every request still in flight (each once; a failing one does not stop the
   * others) and returns how many there were. They stay counted until their handling ends.
   */
  cutOff(): number {
    const cut = [...this.requests];
    for (const entry of cut) {
      try {
        entry();
      } catch {
        // A response that cannot be written any more: its connection is going anyway.
      }
    }
    return cut.length;
  }
}
