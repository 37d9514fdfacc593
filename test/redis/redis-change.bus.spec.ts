import { afterEach, describe, expect, it } from 'vitest';
import type { McpChange } from '../../lib/interfaces/mcp-scale-out.interface.js';
import { RedisChangeBus } from '../../lib/redis/redis-change.bus.js';
import { RedisEventLog } from '../../lib/redis/redis-event.log.js';
import { CapturedLogs } from '../support/captured-logs.js';
import { useRedisServer, waitUntil } from '../support/redis-server.js';

const KINDS = ['tools', 'prompts', 'resources'] as const;
const changes = (count: number): McpChange[] =>
  Array.from({ length: count }, (_, i) =>
    i % 4 === 3 ? { kind: 'resource', uri: `file:///docs/${i}.md` } : { kind: KINDS[i % 4] },
  );

// Each ioredis client stands for one instance of the app (its connection name, inherited by
// the bus's reader, lets the admin client kill that instance's connections).
describe('RedisChangeBus (the changes of one server, shared by every instance)', () => {
  const redis = useRedisServer();
  const buses: RedisChangeBus[] = [];
  let serverCount = 0;

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  /** One bus per instance name for a fresh server name, started, each recording what it hears. */
  async function instances(names: string[], logger = new CapturedLogs()) {
    const serverName = `server-${++serverCount}`;
    const made = names.map((name) => {
      const bus = new RedisChangeBus({
        client: redis.clientOf(name),
        prefix: 'mcp:',
        server: serverName,
        instanceId: name,
        logger,
      });
      buses.push(bus);
      const heard: McpChange[] = [];
      bus.subscribe((change) => heard.push(change));
      return { bus, heard };
    });
    await Promise.all(made.map(({ bus }) => bus.start()));
    return { key: `mcp:changes:${serverName}`, instances: made };
  }

  it('carries 1,000 changes of A to B exactly once each, in order, and none back to A', async () => {
    const {
      key,
      instances: [a, b],
    } = await instances(['A', 'B']);
    for (const change of changes(1_000)) await a.bus.publish(change);
    await waitUntil(() => b.heard.length >= 1_000, 'B heard 1,000 changes');
    await b.bus.publish({ kind: 'tools' });
    await waitUntil(() => a.heard.length >= 1, 'A heard B');

    expect(b.heard).toEqual(changes(1_000));
    expect(a.heard).toEqual([{ kind: 'tools' }]);
    expect(await redis.admin.xlen(key)).toBe(1_001);
  });

  it('tells a change of C to A and to B once each', async () => {
    const {
      instances: [a, b, c],
    } = await instances(['A', 'B', 'C']);
    await c.bus.publish({ kind: 'resource', uri: 'file:///readme.md' });
    await a.bus.publish({ kind: 'prompts' });
    await waitUntil(() => a.heard.length >= 1 && b.heard.length >= 2 && c.heard.length >= 1, 'all');

    expect(a.heard).toEqual([{ kind: 'resource', uri: 'file:///readme.md' }]);
    expect(b.heard).toEqual([{ kind: 'resource', uri: 'file:///readme.md' }, { kind: 'prompts' }]);
    expect(c.heard).toEqual([{ kind: 'prompts' }]);
  });

  it("loses and repeats nothing when B's connections are killed while A publishes", async () => {
    const {
      instances: [a, b],
    } = await instances(['A', 'B']);
    for (const [index, change] of changes(1_000).entries()) {
      await a.bus.publish(change);
      if (index === 250 || index === 600) await redis.killConnectionsOf('B');
    }
    await waitUntil(() => b.heard.length >= 1_000, 'B heard 1,000 changes');
    await a.bus.publish({ kind: 'tools' });
    await waitUntil(() => b.heard.length >= 1_001, 'B heard the last change');

    expect(b.heard).toEqual([...changes(1_000), { kind: 'tools' }]);
  });

  it("delivers once each the changes A publishes while A's own connections are killed", async () => {
    const {
      instances: [a, b],
    } = await instances(['A', 'B']);
    const all = changes(1_000);
    const firstHalf = all.slice(0, 500).map((change) => a.bus.publish(change));
    await redis.killConnectionsOf('A');
    // Published while the client is still to notice, or reconnecting: queued, then sent.
    const secondHalf = all.slice(500).map((change) => a.bus.publish(change));
    const published = [...firstHalf, ...secondHalf];
    await Promise.all(published);
    await a.bus.publish({ kind: 'tools' });
    await waitUntil(() => b.heard.length >= 1_001, 'B heard every change');
    await b.bus.publish({ kind: 'prompts' });
    await waitUntil(() => a.heard.length >= 1, 'A heard B');

    expect(b.heard).toEqual([...changes(1_000), { kind: 'tools' }]);
    expect(a.heard).toEqual([{ kind: 'prompts' }]);
  });

  it('skips malformed entries with a debug line and hears the later ones', async () => {
    const logs = new CapturedLogs();
    const {
      key,
      instances: [a, b],
    } = await instances(['A', 'B'], logs);
    const entry = (payload: string) => redis.admin.xadd(key, '*', 'o', 'X', 'p', payload);
    await entry('{"kind":"tools"'); // not JSON
    await entry('{"kind":"everything"}');
    await entry('{"kind":"resource"}'); // no uri
    await entry('42');
    await entry('{"kind":"tools","extra":true}'); // a change, taken without the extra field
    await a.bus.publish({ kind: 'resources' });
    await waitUntil(() => b.heard.length >= 2, 'B heard the valid changes');

    expect(b.heard).toEqual([{ kind: 'tools' }, { kind: 'resources' }]);
    // A and B share the logger: each skipped the four.
    expect(logs.messages('debug').filter((line) => line.startsWith('Skipped'))).toHaveLength(8);
    expect(logs.errors()).toEqual([]);
  });

  it('runs over a log made elsewhere, on whatever key that log names', async () => {
    const key = 'custom:stream';
    const logOf = (name: string) =>
      new RedisEventLog({ client: redis.clientOf(name), key, instanceId: name });
    const a = new RedisChangeBus(logOf('A'));
    const b = new RedisChangeBus(logOf('B'));
    buses.push(a, b);
    const heard: McpChange[] = [];
    b.subscribe((change) => heard.push(change));
    await Promise.all([a.start(), b.start()]);
    await a.publish({ kind: 'resource', uri: 'mem://x' });
    await waitUntil(() => heard.length >= 1, 'B heard A');

    expect(heard).toEqual([{ kind: 'resource', uri: 'mem://x' }]);
    expect(await redis.admin.xlen(key)).toBe(1);
    expect(RedisChangeBus.keyFor('mcp:', 'main')).toBe('mcp:changes:main');
  });

  it('stops telling changes once closed, and an unsubscribed listener hears nothing', async () => {
    const {
      instances: [a, b, c],
    } = await instances(['A', 'B', 'C']);
    const late: McpChange[] = [];
    const unsubscribe = c.bus.subscribe((change) => late.push(change));
    unsubscribe();
    await waitUntil(
      async () => (await redis.connectionsOf('B')).length === 2,
      'B has two connections',
    );
    await b.bus.close();
    await a.bus.publish({ kind: 'tools' });
    await waitUntil(() => c.heard.length >= 1, 'C heard A');

    expect(b.heard).toEqual([]);
    expect(late).toEqual([]);
    await waitUntil(
      async () => (await redis.connectionsOf('B')).length === 1,
      'B kept only its client',
    );
  });
});
