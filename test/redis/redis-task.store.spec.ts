import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  McpTask,
  McpTaskEvent,
  McpTaskStore,
  NewMcpTask,
} from '../../lib/interfaces/mcp-task-store.interface.js';
import { RedisEventLog } from '../../lib/redis/redis-event.log.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from '../../lib/redis/redis-task.store.js';
import { CapturedLogs } from '../support/captured-logs.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { describeTaskStoreContract } from '../tasks/task-store.contract.js';

let server: RedisServer;
let shared: Redis;
const clients: Redis[] = [];
const logs: RedisEventLog[] = [];
const stores: McpTaskStore[] = [];
let run = 0;

beforeAll(async () => {
  server = await startRedisServer();
  shared = connect();
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await server.stop();
});

function connect(url = server.url): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

/** One instance of the app: its own connection, event log and store, on a shared prefix. */
async function instance(
  prefix: string,
  options: Partial<RedisTaskStoreOptions> = {},
): Promise<RedisTaskStore> {
  const client = options.client ?? connect();
  const log = new RedisEventLog({
    client,
    key: `${prefix}events`,
    instanceId: randomUUID(),
    logger: new CapturedLogs(),
  });
  await log.start();
  logs.push(log);
  const store = new RedisTaskStore({ client, keyPrefix: prefix, events: log, ...options });
  stores.push(store);
  return store;
}

async function closeAll(): Promise<void> {
  await Promise.all(stores.splice(0).map((store) => store.close?.()));
  await Promise.all(logs.splice(0).map((log) => log.close()));
}

describeTaskStoreContract(
  'RedisTaskStore',
  (options) => instance(`test:contract:${++run}:`, { client: shared, ...options }),
  async () => {
    await closeAll();
    await shared.flushdb();
  },
);

const newTask = (overrides: Partial<NewMcpTask> = {}): NewMcpTask => ({
  taskId: randomUUID(),
  owner: 'alice',
  toolName: 'export_catalog',
  ttlMs: 3_600_000,
  ...overrides,
});
const ask = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form' as const,
    message,
    requestedSchema: { type: 'object' as const, properties: {} },
  },
});
const ANSWER = { action: 'accept', content: {} };

/** Every event a store delivers to its subscribers. */
function heardBy(store: McpTaskStore): McpTaskEvent[] {
  const events: McpTaskEvent[] = [];
  store.subscribe((event) => events.push(event));
  return events;
}
const about = (taskId: string) => (event: McpTaskEvent) =>
  ('task' in event ? event.task.taskId : event.taskId) === taskId;
const ofType = (events: McpTaskEvent[], type: McpTaskEvent['type'], taskId: string) =>
  events.filter((event) => event.type === type && about(taskId)(event));

/**
 * Waits until every instance heard a marker of every other: the log keeps each writer's
 * order, so whatever an instance emitted before its marker has arrived everywhere by then.
 */
async function settle(instances: { store: McpTaskStore; events: McpTaskEvent[] }[]) {
  const markers = await Promise.all(
    instances.map(({ store }) => store.create(newTask({ owner: 'marker' }))),
  );
  for (const { events } of instances) {
    await vi.waitFor(
      () => {
        for (const marker of markers) expect(events.some(about(marker.taskId))).toBe(true);
      },
      { timeout: 10_000 },
    );
  }
}

describe('RedisTaskStore on several instances', () => {
  let prefix: string;
  let a: RedisTaskStore;
  let b: RedisTaskStore;
  let heardByA: McpTaskEvent[];
  let heardByB: McpTaskEvent[];
  const both = () => [
    { store: a, events: heardByA },
    { store: b, events: heardByB },
  ];

  async function twoInstances(options: Partial<RedisTaskStoreOptions> = {}) {
    prefix = `test:shared:${++run}:`;
    a = await instance(prefix, options);
    b = await instance(prefix, options);
    heardByA = heardBy(a);
    heardByB = heardBy(b);
  }

  afterEach(async () => {
    await closeAll();
    await shared.flushdb();
  });

  it('reads on one instance the tasks created on another', async () => {
    let clock = Date.now();
    await twoInstances({ now: () => clock });
    const first = await a.create(newTask());
    clock += 1;
    const second = await a.create(newTask({ statusMessage: 'Queued' }));
    expect(await b.get(first.taskId)).toEqual(first);
    expect((await b.list('alice')).tasks.map((task) => task.taskId)).toEqual(
      [second, first].map((task) => task.taskId),
    );
    await vi.waitFor(() => expect(ofType(heardByB, 'updated', second.taskId)).toHaveLength(1));
  });

  it('wakes the runner on A once when the last answer comes, on whichever instance', async () => {
    await twoInstances();
    const task = await a.create(newTask());
    await a.requireInput(task.taskId, { name: ask('Name?'), confirm: ask('Sure?') });
    // Each instance answers one question at once: only the call that answers last empties
    // the round, and only it tells the runner.
    const [onA, onB] = await Promise.all([
      a.resolveInput(task.taskId, { name: ANSWER }),
      b.resolveInput(task.taskId, { confirm: ANSWER }),
    ]);
    expect([onA!.status, onB!.status].toSorted()).toEqual(['input_required', 'working']);
    expect(await b.get(task.taskId)).toMatchObject({ status: 'working' });
    await settle(both());
    expect(ofType(heardByA, 'input-complete', task.taskId)).toHaveLength(1);
    expect(ofType(heardByB, 'input-complete', task.taskId)).toHaveLength(1);
    expect(ofType(heardByA, 'input-complete', task.taskId)[0]).toMatchObject({
      task: { status: 'working', inputResponses: { name: ANSWER, confirm: ANSWER } },
    });
  });

  it('tells the runner on A of a cancel on B', async () => {
    await twoInstances();
    const task = await a.create(newTask());
    const cancelled = await b.requestCancel(task.taskId);
    expect(cancelled!.status).toBe('cancelled');
    await vi.waitFor(() =>
      expect(ofType(heardByA, 'cancel-requested', task.taskId)).toEqual([
        { type: 'cancel-requested', taskId: task.taskId },
      ]),
    );
    expect(await a.get(task.taskId)).toEqual(cancelled);
  });

  it('ends complete on A racing cancel on B in exactly one final state, seen by both', async () => {
    await twoInstances();
    const tasks = await Promise.all(Array.from({ length: 20 }, () => a.create(newTask())));
    const outcomes = await Promise.all(
      tasks.map(async ({ taskId }) => {
        const [completed, cancelled] = await Promise.all([
          a.complete(taskId, { content: [{ type: 'text', text: 'done' }] }),
          b.requestCancel(taskId),
        ]);
        // The loser is handed the winner's task, unchanged.
        expect(cancelled).toEqual(completed);
        expect(await b.get(taskId)).toEqual(completed);
        expect(await a.get(taskId)).toEqual(completed);
        return completed!;
      }),
    );
    await settle(both());
    for (const final of outcomes) {
      expect(['completed', 'cancelled']).toContain(final.status);
      const finalUpdates = (events: McpTaskEvent[]) =>
        ofType(events, 'updated', final.taskId).filter(
          (event) => event.type === 'updated' && event.task.status !== 'working',
        );
      for (const events of [heardByA, heardByB]) {
        expect(finalUpdates(events)).toEqual([{ type: 'updated', task: final }]);
        expect(ofType(events, 'cancel-requested', final.taskId)).toHaveLength(
          final.status === 'cancelled' ? 1 : 0,
        );
      }
    }
  });

  it('expires a task once over all instances, on their own sweep timers', async () => {
    await twoInstances({ sweepIntervalMs: 50 });
    const task = await a.create(newTask({ ttlMs: 200 }));
    const kept = await a.create(newTask({ ttlMs: null }));
    await vi.waitFor(() => expect(ofType(heardByA, 'expired', task.taskId)).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(await b.get(task.taskId)).toBeUndefined();
    expect((await b.list('alice')).tasks).toEqual([kept]);
    await settle(both());
    expect(ofType(heardByA, 'expired', task.taskId)).toHaveLength(1);
    expect(ofType(heardByB, 'expired', task.taskId)).toHaveLength(1);
    expect(await a.sweep()).toBe(0);
  });

  it('finds and announces a task whose hash Redis expired before any sweep', async () => {
    await twoInstances({ sweepIntervalMs: 3_600_000 });
    const task = await a.create(newTask({ ttlMs: 100 }));
    await vi.waitFor(
      async () => expect(await shared.exists(`${prefix}task:${task.taskId}`)).toBe(0),
      {
        timeout: 10_000,
      },
    );
    expect(await b.sweep()).toBe(1);
    expect(await a.sweep()).toBe(0);
    await settle(both());
    expect(ofType(heardByA, 'expired', task.taskId)).toHaveLength(1);
    expect((await a.list('alice')).tasks).toEqual([]);
    // Its id is free again.
    await expect(a.create(newTask({ taskId: task.taskId }))).resolves.toMatchObject({
      status: 'working',
    });
  });

  describe('maxTasks (over every instance)', () => {
    it('evicts the task that finished longest ago, ties by creation, then refuses', async () => {
      let clock = Date.parse('2026-03-01T10:00:00.000Z');
      await twoInstances({ maxTasks: 4, now: () => clock });
      const [first, second, third, fourth] = [newTask(), newTask(), newTask(), newTask()];
      // Created in the same millisecond, on both instances: only the order tells them apart.
      await a.create(first!);
      await b.create(second!);
      await a.create(third!);
      await b.create(fourth!);
      clock += 1;
      // Third and second finish in the same millisecond (second was created first).
      await a.fail(third!.taskId, { code: -32603, message: 'Internal error' });
      await b.complete(second!.taskId, { content: [] });
      clock += 1;
      await a.complete(first!.taskId, { content: [] });

      await b.create(newTask());
      expect(await a.get(second!.taskId)).toBeUndefined();
      // No settle() here: its marker tasks would take room.
      await vi.waitFor(() => expect(ofType(heardByA, 'expired', second!.taskId)).toHaveLength(1));
      await a.create(newTask());
      expect(await b.get(third!.taskId)).toBeUndefined();
      await b.create(newTask());
      expect(await a.get(first!.taskId)).toBeUndefined();
      expect(await a.get(fourth!.taskId)).toMatchObject({ status: 'working' });
      await expect(a.create(newTask())).rejects.toThrow(
        'The task store is full: 4 running tasks (tasks.maxTasks is 4). ' +
          'Raise it with McpModule.forRoot({ tasks: { maxTasks } }), or wait for a task to finish.',
      );
      await b.requestCancel(fourth!.taskId);
      await expect(a.create(newTask())).resolves.toMatchObject({ status: 'working' });
    });

    it('makes room with expired tasks before evicting a finished one', async () => {
      let clock = Date.parse('2026-03-01T10:00:00.000Z');
      await twoInstances({ maxTasks: 2, now: () => clock, sweepIntervalMs: 3_600_000 });
      const finished = await a.create(newTask({ ttlMs: null }));
      await a.complete(finished.taskId, { content: [] });
      const expiring = await b.create(newTask({ ttlMs: 1_000 }));
      clock += 2_000;
      await a.create(newTask());
      expect(await b.get(finished.taskId)).toMatchObject({ status: 'completed' });
      expect(await b.sweep()).toBe(0);
      await vi.waitFor(() => expect(ofType(heardByB, 'expired', expiring.taskId)).toHaveLength(1));
    });

    it('rejects options that cannot work', () => {
      const events = { append: async () => {}, subscribe: () => () => {} };
      const options = { client: shared, keyPrefix: 'test:', events };
      expect(() => new RedisTaskStore({ ...options, maxTasks: 0 })).toThrow(/maxTasks/);
      expect(() => new RedisTaskStore({ ...options, sweepIntervalMs: 0 })).toThrow(
        /sweepIntervalMs/,
      );
    });
  });

  it('close() stops the events and leaves the shared client open', async () => {
    await twoInstances();
    const events = heardBy(a);
    await a.close();
    const task = await b.create(newTask());
    await b.requestCancel(task.taskId);
    // A third instance hears B, so the log carried it; the closed one heard nothing.
    const c = await instance(prefix);
    const heardByC = heardBy(c);
    await settle([
      { store: b, events: heardByB },
      { store: c, events: heardByC },
    ]);
    expect(events).toEqual([]);
    expect(await a.get(task.taskId)).toMatchObject({ status: 'cancelled' });
  });
});

describe('RedisTaskStore without Redis', () => {
  it('rejects every call with an error that says Redis is unavailable', async () => {
    const own = await startRedisServer();
    const client = connect(own.url);
    // ioredis reports each failed reconnection as an 'error' event; unheard, it prints them.
    client.on('error', () => undefined);
    const store = new RedisTaskStore({
      client,
      keyPrefix: 'test:down:',
      events: { append: async () => {}, subscribe: () => () => {} },
    });
    stores.push(store);
    let task: McpTask;
    try {
      task = await store.create(newTask());
    } finally {
      await own.stop();
    }
    const unavailable = /Redis is unavailable/;
    await Promise.all([
      expect(store.get(task.taskId)).rejects.toThrow(unavailable),
      expect(store.create(newTask())).rejects.toThrow(unavailable),
      expect(store.requestCancel(task.taskId)).rejects.toThrow(unavailable),
      expect(store.list('alice')).rejects.toThrow(unavailable),
      expect(store.sweep()).rejects.toThrow(unavailable),
    ]);
    await closeAll();
    client.disconnect();
  });
});
