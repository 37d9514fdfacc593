/**
 * Counts the requests the endpoint is answering, so that shutdown can wait for them to be
 * answered (their responses written) before the HTTP server closes.
 */
export class InFlightRequests {
  private count = 0;
  private idle?: () => void;

  enter(): void {
    this.count += 1;
  }

  leave(): void {
    this.count -= 1;
    if (this.count === 0) this.idle?.();
  }

  get size(): number {
    return this.count;
  }

  /** Resolves `true` once none is left, or `false` when `timeoutMs` passes first. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}
