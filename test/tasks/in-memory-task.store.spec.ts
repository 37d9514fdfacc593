import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpTaskEvent, NewMcpTask } from '../../lib/interfaces/mcp-task-store.interface.js';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task.store.js';
import { captureLogs } from '../support/captured-logs.js';
import { describeTaskStoreContract } from './task-store.contract.js';

describeTaskStoreContract('InMemoryTaskStore', (options) => new InMemoryTaskStore(options));

const START = Date.parse('2026-03-01T10:00:00.000Z');
const newTask = (overrides: Partial<NewMcpTask> = {}): NewMcpTask => ({
  taskId: randomUUID(),
  owner: 'alice',
  toolName: 'export_catalog',
  ttlMs: 3_600_000,
  ...overrides,
});

describe('InMemoryTaskStore', () => {
  let clock = START;
  const stores: InMemoryTaskStore[] = [];
  const open = (options: ConstructorParameters<typeof InMemoryTaskStore>[0] = {}) => {
    const store = new InMemoryTaskStore({ now: () => clock, ...options });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    clock = START;
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('hands out plain copies, which callers and listeners may change', async () => {
    const store = open();
    const events: McpTaskEvent[] = [];
    store.subscribe((event) => events.push(event));
    const created = await store.create(newTask());
    const read = (await store.get(created.taskId))!;
    const [event] = events;
    for (const task of [created, read, event!.type === 'updated' ? event.task : undefined]) {
      expect(Object.isFrozen(task)).toBe(false);
      (task as { status: string }).status = 'failed';
    }
    expect((await store.get(created.taskId))!.status).toBe('working');
  });

  describe('maxTasks', () => {
    it('evicts the finished task updated longest ago, then the one created first', async () => {
      const store = open({ maxTasks: 4 });
      const events: McpTaskEvent[] = [];
      store.subscribe((event) => events.push(event));
      const [a, b, c, d] = [newTask(), newTask(), newTask(), newTask()];
      for (const task of [a, b, c, d]) {
        await store.create(task!);
        clock += 1;
      }
      // b and c finish in the same millisecond (b was created first), a one later; d runs on.
      await store.complete(b!.taskId, { content: [] });
      await store.fail(c!.taskId, { code: -32603, message: 'Internal error' });
      clock += 1;
      await store.complete(a!.taskId, { content: [] });
      events.length = 0;

      await store.create(newTask());
      expect(events).toContainEqual({ type: 'expired', taskId: b!.taskId });
      expect(await store.get(b!.taskId)).toBeUndefined();
      await store.create(newTask());
      expect(await store.get(c!.taskId)).toBeUndefined();
      await store.create(newTask());
      expect(await store.get(a!.taskId)).toBeUndefined();
      expect((await store.get(d!.taskId))!.status).toBe('working');
    });

    it('refuses a new task when every task is still running, and says how to raise it', async () => {
      const store = open({ maxTasks: 2 });
      const running = [newTask(), newTask()];
      for (const task of running) await store.create(task);
      await store.requireInput(running[1]!.taskId, {
        name: { method: 'roots/list' } as never,
      });
      await expect(store.create(newTask())).rejects.toThrow(
        'The task store is full: 2 running tasks (tasks.maxTasks is 2). ' +
          'Raise it with McpModule.forRoot({ tasks: { maxTasks } }), or wait for a task to finish.',
      );
      await store.complete(running[0]!.taskId, { content: [] });
      await expect(store.create(newTask())).resolves.toMatchObject({ status: 'working' });
    });

    it('counts no expired task: it makes room before any finished task is evicted', async () => {
      const store = open({ maxTasks: 2 });
      const finished = await store.create(newTask({ ttlMs: null }));
      await store.complete(finished.taskId, { content: [] });
      const expiring = await store.create(newTask({ ttlMs: 1_000 }));
      clock += 2_000;
      await store.create(newTask());
      expect(await store.get(finished.taskId)).toMatchObject({ status: 'completed' });
      expect(await store.sweep()).toBe(0);
      expect(await store.get(expiring.taskId)).toBeUndefined();
    });

    it('defaults to 1000 tasks', async () => {
      const store = open();
      for (let index = 0; index < 1_000; index++) await store.create(newTask());
      await expect(store.create(newTask())).rejects.toThrow('1000 running tasks');
    });

    it('rejects options that cannot work', () => {
      expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow(/maxTasks/);
      expect(() => new InMemoryTaskStore({ sweepIntervalMs: 0 })).toThrow(/sweepIntervalMs/);
    });
  });

  describe('the sweeper', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    it('does not keep the process alive, and close() stops it', async () => {
      const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
      const clearIntervalSpy = vi.spyOn(globalThis, 'clearInterval');
      const store = open();
      const timer = setIntervalSpy.mock.results[0]!.value as NodeJS.Timeout;
      expect(setIntervalSpy).toHaveBeenCalledWith(expect.any(Function), 60_000);
      expect(timer.hasRef()).toBe(false);
      await store.close();
      expect(clearIntervalSpy).toHaveBeenCalledWith(timer);
    });

    it('sweeps every sweepIntervalMs until close()', async () => {
      vi.useFakeTimers({ now: START });
      const store = new InMemoryTaskStore({ sweepIntervalMs: 1_000 });
      stores.push(store);
      const expired: string[] = [];
      store.subscribe((event) => {
        if (event.type === 'expired') expired.push(event.taskId);
      });
      const first = await store.create(newTask({ ttlMs: 500 }));
      await vi.advanceTimersByTimeAsync(999);
      expect(expired).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(expired).toEqual([first.taskId]);

      const second = await store.create(newTask({ ttlMs: 500 }));
      await store.close();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(expired).toEqual([first.taskId]);
      // Expired all the same: reads check the TTL themselves.
      expect(await store.get(second.taskId)).toBeUndefined();
    });
  });

  describe('listeners', () => {
    const logs = captureLogs();
    let previous: unknown;
    beforeEach(() => {
      previous = (Logger as unknown as { staticInstanceRef?: unknown }).staticInstanceRef;
      Logger.overrideLogger(logs);
    });
    afterEach(() => {
      Logger.overrideLogger((previous as never) ?? false);
    });

    it('logs a listener that throws, and the listeners after it still hear', async () => {
      const store = open();
      store.subscribe(() => {
        throw new Error('listener bug');
      });
      const heard: string[] = [];
      store.subscribe((event) => heard.push(event.type));
      await store.requestCancel((await store.create(newTask())).taskId);
      expect(heard).toEqual(['updated', 'updated', 'cancel-requested']);
      for (const type of ['updated', 'updated', 'cancel-requested']) {
        logs.expectError('[TaskListeners]', `listener failed on "${type}": listener bug`);
      }
    });

    it('are all dropped by close()', async () => {
      const store = open();
      const heard: string[] = [];
      store.subscribe((event) => heard.push(event.type));
      await store.close();
      await store.create(newTask());
      expect(heard).toEqual([]);
    });
  });
});
