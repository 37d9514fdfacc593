import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * How often a stream with no message is sent a comment, as the SDK's transports do
 * (`DEFAULT_SSE_KEEP_ALIVE_MS`), so that proxies do not close it while a tool works.
 */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();

/** One JSON-RPC message as an SSE event, framed as the SDK's transports frame it. */
export const messageFrame = (json: string): string => `event: message\ndata: ${json}\n\n`;

/**
 * The SSE stream of a lean answer, framed as the SDK's per-request transport frames it
 * (`event: message`, one `data:` line of JSON; comments to keep it alive): the
 * notifications of the request as they are sent, then its response, which ends it.
 */
export class LeanEventStream {
  readonly readable: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  private readonly keepAlive: NodeJS.Timeout;

  /** @param cancelled called when the reader cancels the stream (the client went away) */
  constructor(cancelled: () => void) {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.close();
        cancelled();
      },
    });
    this.keepAlive = setInterval(() => this.frame(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  write(message: JSONRPCMessage): void {
    this.frame(messageFrame(JSON.stringify(message)));
  }

  /** Writes the response and ends the stream. */
  end(response: JSONRPCMessage): void {
    this.write(response);
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    try {
      this.controller.close();
    } catch {
      // Cancelled by the reader already.
    }
  }

  private frame(text: string): void {
    if (!this.closed) this.controller.enqueue(encoder.encode(text));
  }
}
