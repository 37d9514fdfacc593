/**
 * Whether the client of one HTTP exchange went away before its answer. Its `AbortSignal` is
 * made only when something asks for one (the SDK's entry, a handler reading `ctx.signal`):
 * most requests on the fast path never do (issue 28, docs/performance.md).
 */
export class ClientGone {
  private controller?: AbortController;
  private gone = false;

  get aborted(): boolean {
    return this.gone;
  }

  /** Aborted when the client goes away (already aborted if it has). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    if (this.gone) return;
    this.gone = true;
    this.controller?.abort();
  }
}
