import { McpServer, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacySessionRouter } from '../../../lib/transports/http/legacy-session.router.js';
import {
  DEFAULT_MAX_STREAMS_PER_SESSION,
  SessionEventStore,
} from '../../../lib/transports/http/session-event.store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: n },
});

/** What a client resuming after `lastEventId` is sent, and the stream it resumes. */
async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: unknown[] = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: async (_id, message) =>
      void sent.push((message as { params?: { data?: unknown } }).params?.data),
  });
  return { stream, sent };
}

describe('SessionEventStore', () => {
  it(`keeps ${DEFAULT_MAX_STREAMS_PER_SESSION} streams of a session by default, the oldest evicted first`, async () => {
    const store = new SessionEventStore();
    const firstIds: string[] = [];
    for (let stream = 0; stream <= DEFAULT_MAX_STREAMS_PER_SESSION; stream += 1) {
      firstIds.push(await store.storeEvent(`s${stream}`, note(stream)));
      await store.storeEvent(`s${stream}`, note(100 + stream));
    }
    expect(await store.getStreamIdForEventId(firstIds[0]!)).toBeUndefined();
    expect(await replay(store, firstIds[0]!)).toEqual({ stream: '', sent: [] });
    expect(await store.getStreamIdForEventId(firstIds[1]!)).toBe('s1');
    expect(await replay(store, firstIds.at(-1)!)).toEqual({
      stream: `s${DEFAULT_MAX_STREAMS_PER_SESSION}`,
      sent: [100 + DEFAULT_MAX_STREAMS_PER_SESSION],
    });
  });

  it('evicts the stream whose last event is the oldest, not the first opened', async () => {
    const store = new SessionEventStore({ maxStreamsPerSession: 2 });
    const standalone = await store.storeEvent('_GET_stream', note(1));
    const post = await store.storeEvent('post-1', note(2));
    // The GET stream goes on: it is now the most recent.
    await store.storeEvent('_GET_stream', note(3));
    await store.storeEvent('post-2', note(4));
    expect(await store.getStreamIdForEventId(post)).toBeUndefined();
    expect(await replay(store, standalone)).toEqual({ stream: '_GET_stream', sent: [3] });
  });

  it('still keeps 100 events per stream', async () => {
    const store = new SessionEventStore({ maxStreamsPerSession: 1 });
    const first = await store.storeEvent('only', note(0));
    for (let n = 1; n <= 100; n += 1) await store.storeEvent('only', note(n));
    // The first event was trimmed away: everything kept is replayed.
    const { sent } = await replay(store, first);
    expect(sent).toHaveLength(100);
    expect(sent[0]).toBe(1);
  });
});

const post = (router: LegacySessionRouter, body: object, sessionId?: string) =>
  router.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(body),
    }),
    { parsedBody: body, identity: 'anonymous' },
  );

/** The ids of the events of an SSE answer. */
const eventIds = async (response: Response) =>
  (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('id: '))
    .map((line) => line.slice(4));

describe('http.legacySessions.maxStreamsPerSession', () => {
  const routers: LegacySessionRouter[] = [];
  afterEach(async () => {
    await Promise.all(routers.splice(0).map((router) => router.close()));
  });

  it('reaches the event store of each session the router opens', async () => {
    const router = new LegacySessionRouter(
      () => new McpServer({ name: 'capped', version: '1.0.0' }),
      { maxStreamsPerSession: 2 },
    );
    routers.push(router);
    const opened = await post(router, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'u', version: '1' },
      },
    });
    const sessionId = opened.headers.get('mcp-session-id')!;
    const streams: string[][] = [await eventIds(opened)];
    for (const id of [2, 3]) {
      streams.push(
        await eventIds(await post(router, { jsonrpc: '2.0', id, method: 'ping' }, sessionId)),
      );
    }
    const resume = (lastEventId: string) =>
      router.handle(
        new Request('http://localhost/mcp', {
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
            'last-event-id': lastEventId,
          },
        }),
        { identity: 'anonymous' },
      );
    // The first of three streams was evicted: it cannot be resumed; the last one can.
    const evicted = await resume(streams[0]![0]!);
    expect(evicted.status).toBe(400);
    expect((await evicted.json()).error.message).toBe('Invalid event ID format');
    const kept = await resume(streams[2]![0]!);
    expect(kept.status).toBe(200);
    await kept.body?.cancel();
  });
});
