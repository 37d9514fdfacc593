import { randomUUID } from 'node:crypto';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionEventStore } from '../../lib/redis/redis-session-event.store.js';
import { SessionEventStore } from '../../lib/transports/http/session-event.store.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

type Replayed = Array<{ id: string; message: JSONRPCMessage }>;

async function replay(
  store: EventStore,
  lastEventId: string,
): Promise<{ streamId: string; events: Replayed }> {
  const events: Replayed = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      events.push({ id, message });
    },
  });
  return { streamId, events };
}

const PRIMING = {} as JSONRPCMessage;
function notification(n: number): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 't', progress: n },
  };
}

/**
 * What a resuming client sees, whatever the store: each case runs on the in-memory store of
 * one-instance apps and on the Redis store, so both are held to the same behaviour. Every
 * case uses its own stream ids (UUIDs, as the SDK's), so the cases share a store.
 */
const SHARED_CASES: Array<{ name: string; run: (store: EventStore) => Promise<void> }> = [
  {
    name: 'replays, in order, the events after the priming event, not the priming event',
    async run(store) {
      const stream = randomUUID();
      const primingId = await store.storeEvent(stream, PRIMING);
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(await store.storeEvent(stream, notification(n)));
      expect(await replay(store, primingId)).toEqual({
        streamId: stream,
        events: ids.map((id, i) => ({ id, message: notification(i + 1) })),
      });
    },
  },
  {
    name: 'replays only what came after the given id; nothing after the last one',
    async run(store) {
      const stream = randomUUID();
      await store.storeEvent(stream, PRIMING);
      const ids = [];
      for (const n of [1, 2, 3, 4]) ids.push(await store.storeEvent(stream, notification(n)));
      expect((await replay(store, ids[1])).events).toEqual([
        { id: ids[2], message: notification(3) },
        { id: ids[3], message: notification(4) },
      ]);
      expect(await replay(store, ids[3])).toEqual({ streamId: stream, events: [] });
    },
  },
  {
    name: 'replays everything kept, but the priming event, after an id it no longer has',
    async run(store) {
      const stream = randomUUID();
      await store.storeEvent(stream, PRIMING);
      const ids = [];
      for (const n of [1, 2]) ids.push(await store.storeEvent(stream, notification(n)));
      // `:0` is never given out: the stream is known, the event is not (as if trimmed).
      expect(await replay(store, `${stream}:0`)).toEqual({
        streamId: stream,
        events: ids.map((id, i) => ({ id, message: notification(i + 1) })),
      });
    },
  },
  {
    name: 'gives distinct ids of the form <streamId>:<n>, and finds the stream of each',
    async run(store) {
      const stream = randomUUID();
      const ids = [await store.storeEvent(stream, PRIMING)];
      for (const n of [1, 2]) ids.push(await store.storeEvent(stream, notification(n)));
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) {
        expect(id).toMatch(new RegExp(`^${stream}:\\d+$`));
        expect(await store.getStreamIdForEventId?.(id)).toBe(stream);
      }
    },
  },
  {
    name: 'knows no stream for an unknown or malformed id, and replays nothing for it',
    async run(store) {
      const known = randomUUID();
      await store.storeEvent(known, notification(1));
      for (const id of [`${randomUUID()}:1`, 'no-separator', ':1', '']) {
        expect(await store.getStreamIdForEventId?.(id)).toBeUndefined();
        expect(await replay(store, id)).toEqual({ streamId: '', events: [] });
      }
    },
  },
  {
    name: 'keeps streams apart',
    async run(store) {
      const [a, b] = [randomUUID(), randomUUID()];
      const primingA = await store.storeEvent(a, PRIMING);
      const primingB = await store.storeEvent(b, PRIMING);
      const onA = await store.storeEvent(a, notification(1));
      const onB = await store.storeEvent(b, notification(2));
      expect(await replay(store, primingA)).toEqual({
        streamId: a,
        events: [{ id: onA, message: notification(1) }],
      });
      expect(await replay(store, primingB)).toEqual({
        streamId: b,
        events: [{ id: onB, message: notification(2) }],
      });
    },
  },
  {
    name: 'returns every kind of message as it was stored',
    async run(store) {
      const stream = randomUUID();
      const priming = await store.storeEvent(stream, PRIMING);
      const messages: JSONRPCMessage[] = [
        { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'é 👋 "q"\n' }] } },
        { jsonrpc: '2.0', id: 'r-1', error: { code: -32602, message: 'bad', data: { at: [0] } } },
        { jsonrpc: '2.0', id: 8, method: 'elicitation/create', params: { message: 'ok?' } },
        { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      ];
      for (const message of messages) await store.storeEvent(stream, message);
      expect((await replay(store, priming)).events.map((event) => event.message)).toEqual(messages);
    },
  },
  {
    name: 'keeps the last 100 events of a stream, and replays those when the id was trimmed',
    async run(store) {
      const stream = randomUUID();
      const ids = [];
      for (let n = 1; n <= 150; n += 1) ids.push(await store.storeEvent(stream, notification(n)));
      const { streamId, events } = await replay(store, ids[0]);
      expect(streamId).toBe(stream);
      expect(events.map((event) => event.id)).toEqual(ids.slice(50));
      expect(events.at(0)?.message).toEqual(notification(51));
      expect(events.at(-1)?.message).toEqual(notification(150));
      // The oldest kept one still replays what follows it.
      expect((await replay(store, ids[50])).events).toHaveLength(99);
    },
  },
];

describe('SessionEventStore (in memory)', () => {
  const store = new SessionEventStore();
  it.each(SHARED_CASES)('$name', ({ run }) => run(store));
});

/** Each store of a test its own keys on the one server. */
function prefix(): string {
  return `test:${randomUUID()}:`;
}

describe('RedisSessionEventStore (a real redis-server)', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  async function connect(): Promise<Redis> {
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: null });
    clients.push(client);
    await client.connect();
    return client;
  }

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server?.stop();
  });

  describe('behaves as the in-memory store', () => {
    let store: RedisSessionEventStore;
    beforeAll(async () => {
      store = new RedisSessionEventStore({ client: await connect(), keyPrefix: prefix() });
    });
    it.each(SHARED_CASES)('$name', ({ run }) => run(store));
  });

  it('replays on another instance (another connection) what one instance stored', async () => {
    const keyPrefix = prefix();
    const first = new RedisSessionEventStore({ client: await connect(), keyPrefix });
    const second = new RedisSessionEventStore({ client: await connect(), keyPrefix });
    const stream = randomUUID();
    const priming = await first.storeEvent(stream, PRIMING);
    const one = await first.storeEvent(stream, notification(1));
    expect(await second.getStreamIdForEventId(priming)).toBe(stream);
    expect(await replay(second, priming)).toEqual({
      streamId: stream,
      events: [{ id: one, message: notification(1) }],
    });
    // And the numbering goes on from where the other left it.
    const two = await second.storeEvent(stream, notification(2));
    expect((await replay(first, one)).events).toEqual([{ id: two, message: notification(2) }]);
  });

  it('gives unique ids when instances write one stream at the same time', async () => {
    const keyPrefix = prefix();
    const stores = [await connect(), await connect()].map(
      (client) => new RedisSessionEventStore({ client, keyPrefix }),
    );
    const stream = randomUUID();
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, n) => stores[n % 2].storeEvent(stream, notification(n))),
    );
    expect(new Set(ids).size).toBe(60);
    const sequence = (id: string) => Number(id.slice(stream.length + 1));
    expect(ids.map(sequence).toSorted((x, y) => x - y)).toEqual(
      Array.from({ length: 60 }, (_, n) => n + 1),
    );
  });

  it('sets the TTL on every key it writes, and forgets a stream once it expired', async () => {
    const client = await connect();
    const keyPrefix = prefix();
    const store = new RedisSessionEventStore({ client, keyPrefix, ttlMs: 60_000 });
    await store.storeEvent(randomUUID(), notification(1));
    await store.storeEvent(randomUUID(), notification(2));
    const keys = await client.keys(`${keyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = await client.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(60_000);
    }

    const shortLived = new RedisSessionEventStore({ client, keyPrefix: prefix(), ttlMs: 50 });
    const id = await shortLived.storeEvent(randomUUID(), notification(3));
    await expect
      .poll(() => shortLived.getStreamIdForEventId(id), { timeout: 10_000 })
      .toBeUndefined();
    expect((await replay(shortLived, id)).streamId).toBe('');
  });

  it('keeps maxEventsPerStream events per stream', async () => {
    const store = new RedisSessionEventStore({
      client: await connect(),
      keyPrefix: prefix(),
      maxEventsPerStream: 3,
    });
    const stream = randomUUID();
    const ids = [];
    for (let n = 1; n <= 5; n += 1) ids.push(await store.storeEvent(stream, notification(n)));
    expect((await replay(store, ids[0])).events.map((event) => event.id)).toEqual(ids.slice(2));
  });

  it('keeps key prefixes apart (one prefix per session: the SDK reuses _GET_stream)', async () => {
    const client = await connect();
    const sessionA = new RedisSessionEventStore({ client, keyPrefix: prefix() });
    const sessionB = new RedisSessionEventStore({ client, keyPrefix: prefix() });
    const primingA = await sessionA.storeEvent('_GET_stream', PRIMING);
    await sessionB.storeEvent('_GET_stream', notification(1));
    expect(await replay(sessionA, primingA)).toEqual({ streamId: '_GET_stream', events: [] });
  });

  it('stores again after the server lost its scripts', async () => {
    const client = await connect();
    const store = new RedisSessionEventStore({ client, keyPrefix: prefix() });
    await store.storeEvent(randomUUID(), notification(1));
    await client.script('FLUSH');
    const stream = randomUUID();
    const id = await store.storeEvent(stream, notification(2));
    expect(await store.getStreamIdForEventId(id)).toBe(stream);
  });

  it('refuses a bound or a TTL that is not a positive integer', async () => {
    const client = await connect();
    expect(
      () => new RedisSessionEventStore({ client, keyPrefix: 'x:', maxEventsPerStream: 0 }),
    ).toThrow(/maxEventsPerStream must be a positive integer/);
    expect(() => new RedisSessionEventStore({ client, keyPrefix: 'x:', ttlMs: 1.5 })).toThrow(
      /ttlMs must be a positive integer/,
    );
  });
});
