// The task store contract, continued (task-store.contract.ts runs it): TTL expiry and
// sweeps, listing by owner a page at a time, and subscribers.
import { Logger } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import type { McpTask, McpTaskEvent } from '../../lib/interfaces/mcp-task-store.interface.js';
import { CapturedLogs } from '../support/captured-logs.js';
import { HOUR, START, tamper, type TaskStoreHarness } from './task-store.harness.js';

const ids = (tasks: readonly McpTask[]) => tasks.map((task) => task.taskId);
const isAbout = (event: McpTaskEvent, task: McpTask) =>
  ('task' in event ? event.task.taskId : event.taskId) === task.taskId;

export function describeTaskStoreListing(h: TaskStoreHarness): void {
  /** `count` tasks of `owner`, one millisecond apart unless `sameMillisecond`; oldest first. */
  async function createTasks(count: number, owner = 'alice', sameMillisecond = false) {
    const tasks: McpTask[] = [];
    for (let index = 0; index < count; index++) {
      tasks.push(await h.store.create(h.newTask({ owner })));
      if (!sameMillisecond) h.advance(1);
    }
    return tasks;
  }

  /** Every page of the owner's tasks, `limit` at a time. */
  async function allPages(owner: string, limit: number) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await h.store.list(owner, { limit, ...(cursor ? { cursor } : {}) });
      pages.push(ids(page.tasks));
      cursor = page.nextCursor;
    } while (cursor);
    return pages;
  }

  describe('TTL', () => {
    it('keeps a task readable until createdAt + ttlMs, then reads it as gone', async () => {
      const task = await h.store.create(h.newTask({ ttlMs: 10_000 }));
      h.advance(9_999);
      expect(await h.store.get(task.taskId)).toEqual(task);
      expect(ids((await h.store.list('alice')).tasks)).toEqual([task.taskId]);
      h.advance(2);
      // Gone before any sweep: no call can see or change it.
      expect(await h.store.get(task.taskId)).toBeUndefined();
      expect(await h.store.setStatusMessage(task.taskId, 'late')).toBeUndefined();
      expect(await h.store.requestCancel(task.taskId)).toBeUndefined();
      expect((await h.store.list('alice')).tasks).toEqual([]);
    });

    it('expires finished tasks too, and never a task with a TTL of null', async () => {
      const finished = await h.store.create(h.newTask({ ttlMs: 10_000 }));
      await h.store.complete(finished.taskId, { content: [] });
      const forever = await h.store.create(h.newTask({ ttlMs: null }));
      h.advance(365 * 24 * HOUR);
      expect(await h.store.get(finished.taskId)).toBeUndefined();
      expect(await h.store.get(forever.taskId)).toEqual(forever);
    });

    it('sweeps: removes the expired tasks, tells subscribers, resolves to how many', async () => {
      const short = await h.store.create(h.newTask({ ttlMs: 1_000 }));
      const shorter = await h.store.create(h.newTask({ ttlMs: 500, owner: 'bob' }));
      const long = await h.store.create(h.newTask({ ttlMs: 5_000 }));
      const forever = await h.store.create(h.newTask({ ttlMs: null }));
      await h.expectEvents(
        [short, shorter, long, forever].map((task) => ({ type: 'updated', task })),
      );
      h.advance(2_000);
      expect(await h.store.sweep()).toBe(2);
      const expired = [short, shorter].map(({ taskId }) => ({ type: 'expired', taskId }) as const);
      await h.expectEvents(expired);
      expect(await h.store.sweep()).toBe(0);
      await h.expectEvents([]);
      expect(await h.store.get(long.taskId)).toEqual(long);
      expect(await h.store.get(forever.taskId)).toEqual(forever);
    });

    it('sweeps as of the time it is given', async () => {
      const task = await h.store.create(h.newTask({ ttlMs: 1_000 }));
      expect(await h.store.sweep(START + 999)).toBe(0);
      expect(await h.store.sweep(START + 1_001)).toBe(1);
      expect(await h.store.get(task.taskId)).toBeUndefined();
    });
  });

  describe('listing', () => {
    it("lists the owner's tasks only, newest first, their latest state", async () => {
      const [first, second, third] = await createTasks(3);
      const [bobs] = await createTasks(1, 'bob');
      const completed = await h.store.complete(second!.taskId, { content: [] });
      const page = await h.store.list('alice');
      expect(page.tasks).toEqual([third, completed, first]);
      expect(page).not.toHaveProperty('nextCursor');
      expect((await h.store.list('bob')).tasks).toEqual([bobs]);
      expect(await h.store.list('nobody')).toEqual({ tasks: [] });
    });

    it('pages with opaque cursors until the last page, which has none', async () => {
      const tasks = await createTasks(5);
      const newestFirst = ids(tasks).toReversed();
      expect(await allPages('alice', 2)).toEqual([
        newestFirst.slice(0, 2),
        newestFirst.slice(2, 4),
        newestFirst.slice(4),
      ]);
      expect(await allPages('alice', 5)).toEqual([newestFirst]);
    });

    it('pages tasks created in the same millisecond, each exactly once', async () => {
      await createTasks(7, 'alice', true);
      const whole = ids((await h.store.list('alice')).tasks);
      expect(whole).toHaveLength(7);
      expect((await allPages('alice', 3)).flat()).toEqual(whole);
    });

    it('keeps a cursor valid when tasks are added', async () => {
      const tasks = await createTasks(4);
      const newestFirst = ids(tasks).toReversed();
      const first = await h.store.list('alice', { limit: 2 });
      expect(ids(first.tasks)).toEqual(newestFirst.slice(0, 2));
      await createTasks(2);
      const second = await h.store.list('alice', { limit: 2, cursor: first.nextCursor! });
      expect(ids(second.tasks)).toEqual(newestFirst.slice(2));
    });

    it('gives 100 tasks a page by default', async () => {
      const tasks = await createTasks(101);
      const first = await h.store.list('alice');
      expect(first.tasks).toHaveLength(100);
      const second = await h.store.list('alice', { cursor: first.nextCursor! });
      expect(ids(second.tasks)).toEqual([tasks[0]!.taskId]);
      expect(second).not.toHaveProperty('nextCursor');
    });

    it('rejects a cursor it did not make', async () => {
      await createTasks(1);
      for (const cursor of ['not a cursor!', Buffer.from('{"a":1}').toString('base64url')]) {
        await expect(h.store.list('alice', { cursor })).rejects.toThrow(/cursor/i);
      }
    });
  });

  describe('subscribers', () => {
    it('stop getting events when they unsubscribe; the others go on', async () => {
      const seen: McpTaskEvent[] = [];
      const unsubscribe = h.store.subscribe((event) => seen.push(event));
      const task = await h.store.create(h.newTask());
      await h.expectEvents([{ type: 'updated', task }]);
      unsubscribe();
      const updated = await h.store.setStatusMessage(task.taskId, 'later');
      await h.expectEvents([{ type: 'updated', task: updated! }]);
      expect(seen.filter((event) => isAbout(event, task))).toEqual([{ type: 'updated', task }]);
    });

    it('get their own copies: a listener changing an event changes nothing', async () => {
      h.store.subscribe((event) => {
        if (event.type === 'updated') tamper(event.task, (task) => (task.status = 'failed'));
      });
      const task = await h.store.create(h.newTask());
      await h.expectEvents([{ type: 'updated', task }]);
      expect((await h.store.get(task.taskId))!.status).toBe('working');
    });

    it('cannot break the store or the other listeners by throwing', async () => {
      const logs = new CapturedLogs();
      // The store may log the failure; keep it out of the test output.
      const previous = (Logger as unknown as { staticInstanceRef?: CapturedLogs })
        .staticInstanceRef;
      Logger.overrideLogger(logs);
      try {
        h.store.subscribe(() => {
          throw new Error('listener bug');
        });
        const after: McpTaskEvent[] = [];
        h.store.subscribe((event) => after.push(event));
        const task = await h.store.create(h.newTask());
        const updated = await h.store.setStatusMessage(task.taskId, 'still fine');
        expect(updated!.statusMessage).toBe('still fine');
        expect(await h.store.get(task.taskId)).toEqual(updated);
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: updated! },
        ]);
        expect(after.filter((event) => isAbout(event, task))).toEqual([
          { type: 'updated', task },
          { type: 'updated', task: updated! },
        ]);
      } finally {
        Logger.overrideLogger(previous ?? false);
      }
    });
  });
}
