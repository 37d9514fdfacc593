import { Injectable, Module, type Type } from '@nestjs/common';
import { McpContext, McpModule, McpTool, type McpCallContext } from 'nestjs-mcp';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_HTTP_ENDPOINT } from '../../../lib/transports/http/mcp-http.constants.js';
import { captureLogs } from '../../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import { callTool, modernHeaders, modernMessage, send } from './slow-clients.wire.js';

/**
 * 1,000 clients that go away in the middle of a call, at once: each call's `ctx.signal`
 * aborts, each tool ends, and nothing is left behind (requests counted in flight, sockets,
 * handles, timers).
 */
const CLIENTS = 1_000;
const WAIT = { timeout: 60_000, interval: 20 };

const calls = { started: 0, aborted: 0, finished: 0 };

@Injectable()
class PatientTools {
  @McpTool({ description: 'Waits until its call is cancelled.' })
  async waitForAbort(@McpContext() ctx: McpCallContext) {
    calls.started += 1;
    try {
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      calls.aborted += 1;
      return 'cancelled';
    } finally {
      calls.finished += 1;
    }
  }

  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }
}

function disconnectsModule(leanPath: boolean): Type {
  @Module({
    imports: [McpModule.forRoot({ name: 'disconnects', version: '1.0.0', http: { leanPath } })],
    providers: [PatientTools],
  })
  class DisconnectsModule {}
  return DisconnectsModule;
}

const connectionsOf = (server: Server) =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

describe.each(
  ADAPTERS.flatMap((adapter) => [
    { adapter, path: 'the fast path', leanPath: true },
    { adapter, path: 'the SDK path (http.leanPath: false)', leanPath: false },
  ]),
)('1,000 clients gone mid-call on $adapter, $path', ({ adapter, leanPath }) => {
  const logs = captureLogs();
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(disconnectsModule(leanPath), { adapter, logger: logs });
  });
  afterAll(() => running?.close());

  it('aborts every call’s ctx.signal and leaves nothing behind', async () => {
    const server = running.app.getHttpServer() as Server;
    const endpoint = running.app.get(MCP_HTTP_ENDPOINT, { strict: false }) as {
      inFlight: { size: number };
    };
    // Warmed up first: what the first request creates once (caches, timers) stays.
    expect((await callTool(running.url, 'ping')).status).toBe(200);
    await expect.poll(() => connectionsOf(server), WAIT).toBe(0);
    const resources = process.getActiveResourcesInfo().length;
    Object.assign(calls, { started: 0, aborted: 0, finished: 0 });

    const call = {
      headers: modernHeaders('tools/call', 'wait_for_abort'),
      body: modernMessage('tools/call', { name: 'wait_for_abort', arguments: {} }),
    };
    const clients = Array.from({ length: CLIENTS }, () =>
      // The reset each gets when it goes away is what it asked for.
      send(running.url, call).on('error', () => undefined),
    );
    await expect.poll(() => calls.started, WAIT).toBe(CLIENTS);
    expect(endpoint.inFlight.size).toBe(CLIENTS);

    for (const client of clients) client.destroy();
    await expect.poll(() => calls.finished, WAIT).toBe(CLIENTS);
    expect(calls.aborted).toBe(CLIENTS);
    await expect.poll(() => endpoint.inFlight.size, WAIT).toBe(0);
    await expect.poll(() => connectionsOf(server), WAIT).toBe(0);
    await expect
      .poll(() => process.getActiveResourcesInfo().length, WAIT)
      .toBeLessThanOrEqual(resources);
    // Still serving.
    expect((await callTool(running.url, 'ping')).status).toBe(200);
  });
});
