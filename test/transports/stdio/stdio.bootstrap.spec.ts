import {
  Injectable,
  Module,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpServerHost, McpTool } from 'nestjs-mcp';
import { bootstrapStdio, CallerRefusedError, type StdioBootstrapOptions } from 'nestjs-mcp/stdio';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../../support/captured-logs.js';
import { initializeRequest } from './stdio-process.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

class PingDto {
  @IsString()
  text!: string;
}

/** Releases `slow` calls when the test says so. */
const gate: { release?: () => void } = {};

@Injectable()
class PingTools {
  @McpTool({ description: 'Answer with the text and the caller.' })
  ping(args: PingDto) {
    return { text: args.text };
  }

  @McpTool({ description: 'Answers once the test releases it.' })
  async slow() {
    await new Promise<void>((resolve) => (gate.release = resolve));
    return 'finished';
  }
}

/** Admits `Bearer ok` only, as an HTTP guard of the endpoint would. */
@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    if (request.headers.authorization !== 'Bearer ok') throw new UnauthorizedException('bad token');
    return true;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'ping', version: '1.0.0', http: { guards: [TokenGuard] } })],
  providers: [PingTools],
})
class PingModule {}

/** stdin and stdout of a stdio server, as streams a test can write to and read from. */
function pipes() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const messages: Array<Record<string, any>> = [];
  let partial = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    messages.push(...lines.map((line) => JSON.parse(line)));
  });
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  const next = async (match: (message: Record<string, any>) => boolean) => {
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** The 2025 handshake, as a client opens a stdio connection (request id 1). */
  const initialize = async () => {
    send(initializeRequest(1));
    await next((message) => message.id === 1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  /** `PingModule` served on these streams, logging to `logs`, leaving the test process alone. */
  const serve = (options: StdioBootstrapOptions) =>
    bootstrapStdio(PingModule, { ...options, stdin, stdout, logger: logs, exitOnClose: false });
  return { send, next, initialize, serve, endInput: () => stdin.end() };
}

describe('bootstrapStdio', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('serves the app on the given streams, pushes catalog changes, and closes the app when stdin ends', async () => {
    const io = pipes();
    const served = await io.serve({ request: { headers: { Authorization: 'Bearer ok' } } });
    close = served.close;
    await io.initialize();
    io.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'ping', arguments: { text: 'hi' } },
    });
    expect((await io.next((message) => message.id === 2)).result.structuredContent).toEqual({
      text: 'hi',
    });

    // A connection outlives requests: a change of the catalog reaches it.
    served.app.get(McpServerHost, { strict: false }).removeTool('ping');
    await io.next((message) => message.method === 'notifications/tools/list_changed');

    io.endInput();
    await served.closed;
    close = undefined;
  });

  it('refuses to serve a caller the http guards reject, and closes the app', async () => {
    const io = pipes();
    const attempt = io.serve({ request: () => ({ headers: { authorization: 'Bearer wrong' } }) });
    await expect(attempt).rejects.toThrow(CallerRefusedError);
    await expect(attempt).rejects.toThrow(
      /refused by TokenGuard: bad token \(401\)\. Give the caller's credentials in the request option/,
    );
  });

  it('serves without checking the caller when guards is []', async () => {
    const io = pipes();
    const served = await io.serve({ guards: [] });
    close = served.close;
    expect(served.app.get(McpServerHost, { strict: false }).options.name).toBe('ping');
  });

  it('answers the calls in flight when stdin ends, then closes the app', async () => {
    const io = pipes();
    const served = await io.serve({ guards: [] });
    close = served.close;
    await io.initialize();
    gate.release = undefined;
    io.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } });
    await expect.poll(() => gate.release).toBeDefined();
    let closed = false;
    void served.closed.then(() => (closed = true));
    io.endInput();
    // The client is done sending; the call it already sent is still running.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    gate.release!();
    const answer = await io.next((message) => message.id === 2);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'finished' }]);
    await served.closed;
    close = undefined;
  });
});
