import { type LoggerService, Module } from '@nestjs/common';
import { McpModule } from 'nestjs-mcp';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, SlowTools } from '../fixtures/slow.tools.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../support/mcp-post.js';

const slowModule = (shutdownTimeoutMs?: number) => {
  @Module({
    imports: [McpModule.forRoot({ name: 'slow', version: '1.0.0', http: { shutdownTimeoutMs } })],
    providers: [SlowTools],
  })
  class SlowAppModule {}
  return SlowAppModule;
};

/** A logger that lets the test wait for a given message, instead of for some time. */
class AwaitableLogger implements LoggerService {
  private readonly waiting: Array<{ pattern: RegExp; resolve: () => void }> = [];
  readonly lines: string[] = [];

  logged(pattern: RegExp): Promise<void> {
    if (this.lines.some((line) => pattern.test(line))) return Promise.resolve();
    const { promise, resolve } = deferred();
    this.waiting.push({ pattern, resolve });
    return promise;
  }

  private record(message: unknown) {
    const line = String(message);
    this.lines.push(line);
    for (const waiter of this.waiting) if (waiter.pattern.test(line)) waiter.resolve();
  }

  log = (message: unknown) => this.record(message);
  warn = (message: unknown) => this.record(message);
  error = (message: unknown) => this.record(message);
}

/** A 2026-07-28 `tools/call`, on a connection of its own (no keep-alive). */
function callTool(url: URL, name: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: {},
      _meta: modernMeta('shutdown'),
    },
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'mcp-protocol-version': MODERN_VERSION,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(ADAPTERS)('graceful shutdown of the HTTP endpoint, on %s', (adapter) => {
  let running: RunningApp | undefined;

  afterEach(async () => {
    SlowTools.release.resolve();
    SlowTools.reset();
    await running?.close().catch(() => undefined);
    running = undefined;
  });

  it('answers the call in flight, refuses new requests with 503, then closes', async () => {
    const logger = new AwaitableLogger();
    running = await startApp(slowModule(), { adapter, logger });
    const inFlight = callTool(running.url, 'wait_for_release');
    await SlowTools.started.promise;

    const closing = running.app.close();
    await logger.logged(/waiting up to 10000 ms for 1 MCP request\(s\) in flight/);

    const refused = await callTool(running.url, 'wait_for_release');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(refused.body.error.message).toMatch(/the MCP server is shutting down/);

    SlowTools.release.resolve();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.result.content).toEqual([{ type: 'text', text: 'finished' }]);
    await closing;
    running = undefined;
  });

  it('stops waiting after http.shutdownTimeoutMs and says so', async () => {
    const logger = new AwaitableLogger();
    running = await startApp(slowModule(50), { adapter, logger });
    const inFlight = callTool(running.url, 'wait_for_release').catch((error: Error) => error);
    await SlowTools.started.promise;

    const closing = running.app.close();
    await logger.logged(
      /1 MCP request\(s\) still in flight after 50 ms \(http\.shutdownTimeoutMs\)/,
    );

    // The HTTP server's own close still lets the last answer out.
    SlowTools.release.resolve();
    await closing;
    running = undefined;
    await inFlight;
  });

  it('closes at once when nothing is in flight', async () => {
    const logger = new AwaitableLogger();
    running = await startApp(slowModule(), { adapter, logger });
    await running.app.close();
    running = undefined;
    expect(logger.lines.filter((line) => /in flight/.test(line))).toEqual([]);
  });
});
