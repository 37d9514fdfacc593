import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long requests in flight may take to be answered once stdin has ended. */
const DRAIN_TIMEOUT_MS = 10_000;

type RequestId = string | number;

const requestIdOf = (message: JSONRPCMessage): RequestId | undefined =>
  'method' in message && 'id' in message ? message.id : undefined;

const responseIdOf = (message: JSONRPCMessage): RequestId | undefined =>
  !('method' in message) && 'id' in message ? (message.id as RequestId) : undefined;

/**
 * The SDK's stdio transport, telling when it closed, and draining first: when stdin ends
 * (the client is done sending), the requests it already sent are answered before the
 * transport closes, within {@link DRAIN_TIMEOUT_MS}. `serveStdio` owns the transport's
 * `onclose` (it tears the pinned server down there), so the close hook given here is where
 * a process learns that its client went away.
 *
 * The SDK's transport closes as soon as the stream it reads ends. It is given a stream of
 * its own (its public `stdin` parameter): a pass-through fed from the real stdin, whose end
 * is held back until the requests in flight are answered (or the drain timeout passes).
 */
export class ClosableStdioTransport extends StdioServerTransport {
  private notified = false;
  private readonly inFlight = new Set<RequestId>();
  /** What the SDK's transport reads: the real stdin's bytes, ended once drained. */
  private readonly input: PassThrough;
  private fed = false;
  private ending = false;
  private drained?: () => void;
  // The SDK's transport reads its stream as fast as bytes come (it buffers them itself), so
  // what is written here flows straight on.
  private readonly onSourceData = (chunk: Buffer | string) => void this.input.write(chunk);
  private readonly onSourceEnd = () => void this.endInputWhenDrained();
  private readonly onSourceError = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly source: Readable = process.stdin,
    stdout: Writable | undefined,
    private readonly onWireClosed: () => void,
  ) {
    const input = new PassThrough();
    super(input, stdout);
    this.input = input;
    // The server sets `onmessage` when it connects; requests are counted on the way in.
    let handler: ((message: JSONRPCMessage) => void) | undefined;
    Object.defineProperty(this, 'onmessage', {
      get: () => handler,
      set: (next: ((message: JSONRPCMessage) => void) | undefined) => {
        handler =
          next &&
          ((message) => {
            const id = requestIdOf(message);
            if (id !== undefined) this.inFlight.add(id);
            next(message);
          });
      },
    });
  }

  /** Starts the SDK's transport on its stream, then feeds the real stdin into it. */
  override async start(): Promise<void> {
    await super.start();
    const { source } = this;
    this.fed = true;
    // The end is not passed on: it is given once the requests in flight are answered.
    source.on('data', this.onSourceData);
    source.on('error', this.onSourceError);
    source.once('end', this.onSourceEnd);
    source.once('close', this.onSourceEnd);
    if (source.readableEnded || source.destroyed) this.onSourceEnd();
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    await super.send(message);
    const id = responseIdOf(message);
    if (id !== undefined && this.inFlight.delete(id) && this.inFlight.size === 0) this.drained?.();
  }

  override async close(): Promise<void> {
    this.release();
    await super.close();
    if (this.notified) return;
    this.notified = true;
    this.onWireClosed();
  }

  /** End of the real stdin: answer what was sent, then end the SDK's stream (it closes). */
  private async endInputWhenDrained(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    // The last bytes may still sit in the pass-through: the SDK reads (and so counts) them
    // as they flow, within a turn of the event loop. A closed transport reads no more.
    while (this.input.readableLength > 0 || this.input.writableLength > 0) {
      if (!this.fed || Date.now() >= deadline) break;
      await nextTurn();
    }
    if (this.fed && this.inFlight.size > 0) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        setTimeout(resolve, Math.max(0, deadline - Date.now())).unref();
      });
    }
    this.input.end();
  }

  /**
   * Stops reading the real stdin (once, when the transport closes), and pauses it when
   * nothing else reads it, as the SDK's transport does with the stream it was given.
   */
  private release(): void {
    if (!this.fed) return;
    this.fed = false;
    const { source } = this;
    source.off('data', this.onSourceData);
    source.off('error', this.onSourceError);
    source.off('end', this.onSourceEnd);
    source.off('close', this.onSourceEnd);
    if (source.listenerCount('data') === 0) source.pause();
  }
}
