import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Readable, Writable } from 'node:stream';

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
 */
export class ClosableStdioTransport extends StdioServerTransport {
  private notified = false;
  private readonly inFlight = new Set<RequestId>();
  private drained?: () => void;

  constructor(
    stdin: Readable | undefined,
    stdout: Writable | undefined,
    private readonly onWireClosed: () => void,
  ) {
    super(stdin, stdout);
    // Registered by start(): end of input drains, then closes.
    this._onstdinclose = () => void this.drainThenClose();
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

  override async send(message: JSONRPCMessage): Promise<void> {
    await super.send(message);
    const id = responseIdOf(message);
    if (id !== undefined && this.inFlight.delete(id) && this.inFlight.size === 0) this.drained?.();
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.notified) return;
    this.notified = true;
    this.onWireClosed();
  }

  private async drainThenClose(): Promise<void> {
    if (this.inFlight.size > 0) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        setTimeout(resolve, DRAIN_TIMEOUT_MS).unref();
      });
    }
    await this.close().catch(() => undefined);
  }
}
