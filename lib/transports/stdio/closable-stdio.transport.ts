import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Readable, Writable } from 'node:stream';

/**
 * The SDK's stdio transport, telling when it closed. `serveStdio` owns the transport's
 * `onclose` (it tears the pinned server down there), and it closes the transport itself
 * when stdin ends, so this hook is where a process learns that its client went away.
 */
export class ClosableStdioTransport extends StdioServerTransport {
  private notified = false;

  constructor(
    stdin: Readable | undefined,
    stdout: Writable | undefined,
    private readonly onWireClosed: () => void,
  ) {
    super(stdin, stdout);
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.notified) return;
    this.notified = true;
    this.onWireClosed();
  }
}
