import { Injectable, Module } from '@nestjs/common';
import {
  McpContext,
  McpModule,
  McpResource,
  McpServerHost,
  McpTool,
  type McpCallContext,
} from 'nestjs-mcp';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import {
  callTool,
  exchange,
  messagesOf,
  modernHeaders,
  modernMessage,
  open,
  pausedStream,
  publishUntil,
  rawConnection,
  watchAbortListeners,
} from './slow-clients.wire.js';

/** The clients that stop reading, trickle their body or never end their headers. */
const FEED = 'test://feed';
/** `http.maxStreamBufferBytes` here: small, so that a paused reader reaches it soon. */
const BOUND = 64 * 1024;
/** A result larger than the bound, sent as one SSE event. */
const BIG = 4 * BOUND;
const LEGACY_VERSION = '2025-11-25';

@Injectable()
class SlowClientTools {
  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }

  @McpTool({ description: 'Reports progress, then answers a text larger than the stream bound.' })
  async bigReport(@McpContext() ctx: McpCallContext) {
    await ctx.reportProgress(1, 1);
    return 'x'.repeat(BIG);
  }

  @McpResource({ uri: FEED, description: 'A feed that changes often.', mimeType: 'text/plain' })
  feed() {
    return 'news';
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'slow-streams',
      version: '1.0.0',
      http: { maxStreamBufferBytes: BOUND, legacySessions: true },
    }),
  ],
  providers: [SlowClientTools],
})
class SlowStreamsModule {}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'slow-requests',
      version: '1.0.0',
      http: { bodyTimeoutMs: 300, headersTimeoutMs: 300, legacySessions: true },
    }),
  ],
  providers: [SlowClientTools],
})
class SlowRequestsModule {}

const pong = async (url: URL) => {
  const answer = await callTool(url, 'ping');
  expect(answer.status).toBe(200);
  expect(messagesOf(answer).at(-1)?.result.content).toEqual([{ type: 'text', text: 'pong' }]);
};

/** The headers of a 2025 session's requests. */
const sessionHeaders = (sessionId?: string) => ({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': LEGACY_VERSION,
  ...(sessionId !== undefined && { 'mcp-session-id': sessionId }),
});

/** Opens a 2025 session subscribed to the feed; its id. */
async function subscribedSession(url: URL): Promise<string> {
  const opened = await exchange(url, {
    headers: sessionHeaders(),
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'slow-clients-spec', version: '1' },
      },
    },
  });
  expect(opened.status).toBe(200);
  const sessionId = opened.headers['mcp-session-id'] as string;
  const headers = sessionHeaders(sessionId);
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  expect((await exchange(url, { headers, body: initialized })).status).toBe(202);
  const subscribe = { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: FEED } };
  expect((await exchange(url, { headers, body: subscribe })).status).toBe(200);
  return sessionId;
}

describe.each(ADAPTERS)('a client that stops reading its stream (%s)', (adapter) => {
  const logs = captureLogs();
  let running: RunningApp;
  let host: McpServerHost;

  beforeAll(async () => {
    running = await startApp(SlowStreamsModule, { adapter, logger: logs });
    host = running.app.get(McpServerHost);
  });
  afterAll(() => running?.close());

  const closedStreams = () =>
    logs
      .messages('warn')
      .filter((message) => message.includes(`http.maxStreamBufferBytes (${BOUND})`)).length;

  it('has its subscriptions/listen stream closed at http.maxStreamBufferBytes; others are served meanwhile', async () => {
    const watch = watchAbortListeners();
    try {
      const before = closedStreams();
      const stream = await pausedStream(running.url, {
        headers: modernHeaders('subscriptions/listen'),
        body: modernMessage('subscriptions/listen', {
          notifications: { resourceSubscriptions: [FEED] },
        }),
      });
      expect(stream.status).toBe(200);
      await pong(running.url);
      const listeners = watch.most();
      let most = listeners;
      const sent = await publishUntil(
        () => host.resourceUpdated(FEED),
        () => {
          most = Math.max(most, watch.most());
          return closedStreams() > before;
        },
      );
      expect(closedStreams()).toBe(before + 1);
      // Every wait for the slow reader used to add one (1,501 after one paused stream).
      expect(most).toBeLessThanOrEqual(listeners);
      await pong(running.url);
      // The client learns that the stream ended once it reads again (it may reconnect).
      await stream.resume();
      expect(sent).toBeGreaterThan(0);
    } finally {
      watch.restore();
    }
  });

  it('has a 2025 session’s GET stream closed alike; the session lives on', async () => {
    const sessionId = await subscribedSession(running.url);
    const before = closedStreams();
    const getStream = () =>
      pausedStream(running.url, {
        method: 'GET',
        headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
      });
    const stream = await getStream();
    expect(stream.status).toBe(200);
    await publishUntil(
      () => host.resourceUpdated(FEED),
      () => closedStreams() > before,
    );
    expect(closedStreams()).toBe(before + 1);
    await stream.resume();
    const ping = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'ping', arguments: {} },
    };
    const answer = await exchange(running.url, {
      headers: sessionHeaders(sessionId),
      body: ping,
    });
    expect(answer.status).toBe(200);
    expect(messagesOf(answer).at(-1)?.result.content).toEqual([{ type: 'text', text: 'pong' }]);
    // Its client opens the GET stream again.
    const again = await getStream();
    expect(again.status).toBe(200);
    again.destroy();
  });

  it('still sends one message larger than the bound whole to a client that reads', async () => {
    const before = closedStreams();
    const answer = await callTool(running.url, 'big_report', { progressToken: 'report' });
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const messages = messagesOf(answer);
    expect(messages[0]).toMatchObject({ method: 'notifications/progress' });
    expect(messages.at(-1)?.result.content).toEqual([{ type: 'text', text: 'x'.repeat(BIG) }]);
    expect(closedStreams()).toBe(before);
  });
});

describe.each(ADAPTERS)('a client that sends its request slowly (%s)', (adapter) => {
  const logs = captureLogs();
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(SlowRequestsModule, { adapter, logger: logs });
  });
  afterAll(() => running?.close());

  it('gets 408 and a closed connection for a body trickled past http.bodyTimeoutMs; others are served meanwhile', async () => {
    const body = JSON.stringify(modernMessage('tools/call', { name: 'ping', arguments: {} }));
    const { socket, received, closed } = await rawConnection(running.url);
    const head = Object.entries({
      ...modernHeaders('tools/call', 'ping'),
      host: running.url.host,
      'content-length': String(Buffer.byteLength(body)),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${running.url.pathname} HTTP/1.1\r\n${head}\r\n`);
    // A byte at a time, never the last: the body would never be in.
    let sent = 0;
    const trickle = setInterval(() => {
      if (sent < body.length - 1 && !socket.destroyed) socket.write(body[sent++]!);
    }, 20);
    try {
      await pong(running.url);
      await closed;
    } finally {
      clearInterval(trickle);
    }
    const [status, ...rest] = received().split('\r\n');
    expect(status).toBe('HTTP/1.1 408 Request Timeout');
    const [headers, json] = rest.join('\r\n').split('\r\n\r\n');
    expect(headers!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(json!)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'Request Timeout: the request body did not arrive within 300 ms (the ' +
          'http.bodyTimeoutMs option of McpModule); send the body at once',
      },
    });
    await pong(running.url);
  });

  it('keeps a 2025 session’s GET stream open past http.bodyTimeoutMs (it has no body to wait for)', async () => {
    const sessionId = await subscribedSession(running.url);
    const { response, destroy } = await open(running.url, {
      method: 'GET',
      headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
    });
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    await sleep(600);
    running.app.get(McpServerHost).resourceUpdated(FEED);
    await expect.poll(() => text, { timeout: 10_000 }).toContain(FEED);
    expect(response.destroyed).toBe(false);
    destroy();
  });

  it('gets 408 from Node for headers that never end, past http.headersTimeoutMs', async () => {
    const server = running.app.getHttpServer() as Server;
    expect(server.headersTimeout).toBe(300);
    const { socket, received, closed } = await rawConnection(running.url);
    socket.write(`POST ${running.url.pathname} HTTP/1.1\r\nhost: ${running.url.host}\r\nx-slow: `);
    await pong(running.url);
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    await pong(running.url);
  });
});
