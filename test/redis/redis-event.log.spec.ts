import { afterEach, describe, expect, it } from 'vitest';
import { RedisEventLog, type RedisEventLogOptions } from '../../lib/redis/redis-event.log.js';
import { CapturedLogs } from '../support/captured-logs.js';
import { startRedisServer, useRedisServer, waitUntil } from '../support/redis-server.js';

/** Keeps Redis busy for ARGV[1] ms (scripts run alone: nothing else is served meanwhile). */
const BUSY_SCRIPT = `
local function now() local t = redis.call('TIME') return t[1] * 1000 + t[2] / 1000 end
local start = now()
while now() - start < tonumber(ARGV[1]) do end
return 1`;

const range = (count: number) => Array.from({ length: count }, (_, i) => ({ i }));

// Each ioredis client stands for one instance of the app; its connection name (inherited by
// the log's reader) lets the admin client kill that instance's connections.
describe('RedisEventLog (a Redis Stream fanned out to every instance)', () => {
  const redis = useRedisServer();
  const logs: RedisEventLog[] = [];
  let key = 0;

  afterEach(async () => {
    await Promise.all(logs.splice(0).map((log) => log.close()));
  });

  /** The log, closed after the test, with what its listener heard. */
  function listening(log: RedisEventLog) {
    logs.push(log);
    const heard: unknown[] = [];
    log.subscribe((payload) => heard.push(payload));
    return { log, heard };
  }

  /** One log per instance name on a fresh key, started, each recording what it hears. */
  async function instances(names: string[], options: Partial<RedisEventLogOptions> = {}) {
    const streamKey = `test:events:${++key}`;
    const made = names.map((name) => {
      const client = redis.clientOf(name);
      const log = listening(
        new RedisEventLog({
          client,
          key: streamKey,
          instanceId: name,
          // Quiet by default: the lost connections of these tests are on purpose.
          logger: new CapturedLogs(),
          ...options,
        }),
      );
      return { ...log, client };
    });
    await Promise.all(made.map(({ log }) => log.start()));
    return { key: streamKey, instances: made };
  }

  it('hands every entry of another instance to each listener once, in order, and none of its own', async () => {
    const {
      instances: [a, b],
    } = await instances(['A', 'B']);
    for (const payload of range(1_000)) await a.log.append(payload);
    await waitUntil(() => b.heard.length >= 1_000, 'B heard 1,000 entries');
    await b.log.append({ from: 'B' });
    await waitUntil(() => a.heard.length >= 1, 'A heard B');

    expect(b.heard).toEqual(range(1_000));
    expect(a.heard).toEqual([{ from: 'B' }]);
  });

  it('reaches every other instance: an entry of C is heard once by A and by B', async () => {
    const {
      instances: [a, b, c],
    } = await instances(['A', 'B', 'C']);
    await c.log.append({ change: 'one' });
    await c.log.append({ change: 'two' });
    await waitUntil(() => a.heard.length >= 2 && b.heard.length >= 2, 'A and B heard C');
    // One more entry after them proves nothing further was on its way.
    await a.log.append({ change: 'three' });
    await waitUntil(() => b.heard.length >= 3 && c.heard.length >= 1, 'B and C heard A');

    expect(a.heard).toEqual([{ change: 'one' }, { change: 'two' }]);
    expect(b.heard).toEqual([{ change: 'one' }, { change: 'two' }, { change: 'three' }]);
    expect(c.heard).toEqual([{ change: 'three' }]);
  });

  it('hears only what is appended after start()', async () => {
    const streamKey = `test:events:${++key}`;
    const a = new RedisEventLog({ client: redis.clientOf('A'), key: streamKey, instanceId: 'A' });
    const b = new RedisEventLog({ client: redis.clientOf('B'), key: streamKey, instanceId: 'B' });
    logs.push(a, b);
    const heard: unknown[] = [];
    b.subscribe((payload) => heard.push(payload));
    await a.append('before');
    await b.start();
    await a.append('after');
    await waitUntil(() => heard.length >= 1, 'B heard an entry');

    expect(heard).toEqual(['after']);
  });

  it("loses nothing and repeats nothing when the reader's connection is killed midway", async () => {
    const {
      instances: [a, b],
    } = await instances(['A', 'B']);
    for (const [index, payload] of range(1_000).entries()) {
      await a.log.append(payload);
      if (index === 300) await redis.killConnectionsOf('B');
      if (index === 700) await redis.killConnectionsOf('B');
    }
    await waitUntil(() => b.heard.length >= 1_000, 'B heard 1,000 entries');
    await a.log.append('last');
    await waitUntil(() => b.heard.length >= 1_001, 'B heard the last entry');

    expect(b.heard).toEqual([...range(1_000), 'last']);
  });

  it("delivers once each the appends made while the writer's own connection is killed", async () => {
    const {
      instances: [a, b],
    } = await instances(['A', 'B']);
    const writerId = String(await a.client.client('ID'));
    // A script that keeps Redis busy a moment, so that the appends and the kill wait in
    // its socket buffers and are read in one go: the appends Redis runs before the kill
    // lose their replies, and ioredis resends them.
    const busy = redis.clientOf('busy').eval(BUSY_SCRIPT, 0, 300);
    const appends = range(1_000).map((payload) => a.log.append(payload));
    const killed = redis.admin.client('KILL', 'ID', writerId);
    await Promise.all([busy, killed, ...appends]);
    await waitUntil(() => b.heard.length >= 1_000, 'B heard 1,000 entries');
    await a.log.append('last');
    await waitUntil(() => b.heard.length >= 1_001, 'B heard the last entry');

    expect(b.heard).toEqual([...range(1_000), 'last']);
  });

  it('drops a second copy of an entry (what a resent append leaves on the stream)', async () => {
    const {
      key: streamKey,
      instances: [a, b],
    } = await instances(['A', 'B']);
    await a.log.append('once');
    const [[, fields]] = (await redis.admin.xrange(streamKey, '-', '+')) as [string, string[]][];
    await redis.admin.xadd(streamKey, '*', ...fields);
    await a.log.append('next');
    await waitUntil(() => b.heard.length >= 2, 'B heard two entries');

    expect(await redis.admin.xlen(streamKey)).toBe(3);
    expect(b.heard).toEqual(['once', 'next']);
  });

  it('keeps every entry through a kill of every connection (writer and readers alike)', async () => {
    const {
      instances: [a, b, c],
    } = await instances(['A', 'B', 'C']);
    const appends = range(1_000).map((payload, index) => {
      const done = a.log.append(payload);
      if (index === 500) {
        void done.then(() => redis.admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
      }
      return done;
    });
    await Promise.all(appends);
    await waitUntil(() => b.heard.length >= 1_000 && c.heard.length >= 1_000, 'B and C heard all');
    await a.log.append('last');
    await waitUntil(() => b.heard.length >= 1_001 && c.heard.length >= 1_001, 'B and C heard last');

    expect(b.heard).toEqual([...range(1_000), 'last']);
    expect(c.heard).toEqual([...range(1_000), 'last']);
  });

  it('reads on after Redis restarted empty, even entries with ids below those it had read', async () => {
    const logsOfB = new CapturedLogs();
    const streamKey = `test:events:${++key}`;
    const a = new RedisEventLog({
      client: redis.clientOf('A'),
      key: streamKey,
      instanceId: 'A',
      logger: new CapturedLogs(),
    });
    const b = new RedisEventLog({
      client: redis.clientOf('B'),
      key: streamKey,
      instanceId: 'B',
      blockMs: 200,
      logger: logsOfB,
    });
    logs.push(a, b);
    const heard: unknown[] = [];
    b.subscribe((payload) => heard.push(payload));
    await Promise.all([a.start(), b.start()]);
    await a.append('before');
    await waitUntil(() => heard.length >= 1, 'B heard the first entry');

    await redis.server.restart();
    await waitUntil(
      () => logsOfB.messages('warn').some((message) => message.includes('Redis lost its data')),
      'B noticed the empty stream',
    );
    // An id lower than any the old server gave out: read only because B realigned.
    await redis.admin.xadd(streamKey, '1-1', 'o', 'X', 'p', '"low"');
    await a.append('after');
    await waitUntil(() => heard.length >= 3, 'B heard the entries after the restart');

    expect(heard).toEqual(['before', 'low', 'after']);
    expect(logsOfB.messages('warn')[0]).toContain(`Lost Redis stream ${streamKey}`);
    expect(logsOfB.messages('log').at(-1)).toContain(`Redis stream ${streamKey} is back`);
  });

  it('skips entries that carry no payload or no JSON, and reads on', async () => {
    const logsOfB = new CapturedLogs();
    const {
      key: streamKey,
      instances: [a, b],
    } = await instances(['A', 'B'], { logger: logsOfB });
    await redis.admin.xadd(streamKey, '*', 'o', 'X', 'p', '{not json');
    await redis.admin.xadd(streamKey, '*', 'something', 'else');
    await a.log.append('fine');
    await waitUntil(() => b.heard.length >= 1, 'B heard the valid entry');

    expect(b.heard).toEqual(['fine']);
    // A and B share the logger, and each skips both.
    const skipped = logsOfB.messages('debug').filter((line) => line.startsWith('Skipped'));
    expect(skipped).toHaveLength(4);
  });

  it('goes on delivering when a listener throws', async () => {
    const logsOfB = new CapturedLogs();
    const {
      instances: [a, b],
    } = await instances(['A', 'B'], { logger: logsOfB });
    const thrower: unknown[] = [];
    b.log.subscribe((payload) => {
      thrower.push(payload);
      throw new Error('listener broke');
    });
    await a.log.append(1);
    await a.log.append(2);
    await waitUntil(() => b.heard.length >= 2, 'B heard both');

    expect(b.heard).toEqual([1, 2]);
    expect(thrower).toEqual([1, 2]);
    logsOfB.expectError('listener broke');
    logsOfB.expectError('listener broke');
  });

  it('runs several logs on one client side by side, each on its own stream', async () => {
    const [clientA, clientB] = [redis.clientOf('A'), redis.clientOf('B')];
    const [first, second] = [`test:events:${++key}`, `test:events:${++key}`];
    const a1 = listening(new RedisEventLog({ client: clientA, key: first, instanceId: 'A' }));
    const a2 = listening(new RedisEventLog({ client: clientA, key: second, instanceId: 'A' }));
    const b1 = listening(new RedisEventLog({ client: clientB, key: first, instanceId: 'B' }));
    const b2 = listening(new RedisEventLog({ client: clientB, key: second, instanceId: 'B' }));
    await Promise.all([a1, a2, b1, b2].map(({ log }) => log.start()));
    await a1.log.append('one');
    await a2.log.append('two');
    await b2.log.append('three');
    await waitUntil(() => b1.heard.length + b2.heard.length >= 2, 'B heard A');
    await waitUntil(() => a2.heard.length >= 1, 'A heard B');

    expect([b1.heard, b2.heard, a1.heard, a2.heard]).toEqual([['one'], ['two'], [], ['three']]);
  });

  it('stops delivering at close() and closes its reader, never the client', async () => {
    const {
      instances: [a, b, c],
    } = await instances(['A', 'B', 'C']);
    // The client's connection and the reader's.
    await waitUntil(
      async () => (await redis.connectionsOf('B')).length === 2,
      'B has two connections',
    );

    await b.log.close();
    await b.log.close();
    await a.log.append('after close');
    await waitUntil(() => c.heard.length >= 1, 'C heard the entry');

    expect(b.heard).toEqual([]);
    await waitUntil(
      async () => (await redis.connectionsOf('B')).length === 1,
      'B has one connection',
    );
    await b.log.append('still appends');
    await waitUntil(() => c.heard.length >= 2, 'C heard B');
    expect(c.heard).toEqual(['after close', 'still appends']);
  });

  it('closes while Redis is unreachable, and a log never started closes at once', async () => {
    const own = await startRedisServer();
    const logsOfA = new CapturedLogs();
    const log = new RedisEventLog({
      client: redis.clientOf('A', own.url),
      key: 'test:events:gone',
      instanceId: 'A',
      logger: logsOfA,
    });
    await log.start();
    await own.stop();
    await waitUntil(
      () => logsOfA.messages('warn').some((message) => message.includes('Lost Redis stream')),
      'the log noticed',
    );
    await log.close();

    const clientB = redis.clientOf('B');
    await clientB.ping();
    const idle = new RedisEventLog({ client: clientB, key: 'test:idle', instanceId: 'B' });
    await idle.close();
    await idle.start();
    expect(await redis.connectionsOf('B')).toHaveLength(1);
  });
});
