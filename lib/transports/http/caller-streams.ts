import type { ServerResponse } from 'node:http';

/**
 * The long-lived streams each caller holds open on an endpoint (2026-07-28
 * `subscriptions/listen` streams, 2025 sessions' GET streams), so that one caller cannot
 * hold them all: opening one beyond the caller's limit ends the caller's oldest, whose
 * client reconnects if it still wants it.
 */
export class CallerStreams {
  private readonly byCaller = new Map<string, ServerResponse[]>();

  constructor(private readonly maxPerCaller: number) {}

  /** Counts a stream the caller opens, and ends the caller's oldest beyond the limit. */
  open(identity: string, response: ServerResponse): void {
    let streams = this.byCaller.get(identity);
    if (!streams) {
      streams = [];
      this.byCaller.set(identity, streams);
    }
    streams.push(response);
    response.once('close', () => this.forget(identity, response));
    while (streams.length > this.maxPerCaller) streams.shift()!.destroy();
  }

  /** How many streams a caller holds now. */
  countOf(identity: string): number {
    return this.byCaller.get(identity)?.length ?? 0;
  }

  private forget(identity: string, response: ServerResponse): void {
    const streams = this.byCaller.get(identity);
    if (!streams) return;
    const index = streams.indexOf(response);
    if (index !== -1) streams.splice(index, 1);
    if (streams.length === 0) this.byCaller.delete(identity);
  }
}
