// What the task store contract (task-store.contract.ts) runs on: a store made fresh for
// each test on an injected clock, the events it emitted, and new tasks to create.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type {
  McpTaskEvent,
  McpTaskStore,
  NewMcpTask,
} from '../../lib/interfaces/mcp-task-store.interface.js';

/** Makes the store under test; `now` is its clock, `maxTasks` its limit when it has one. */
export type TaskStoreFactory = (options: {
  now: () => number;
  maxTasks?: number;
}) => Promise<McpTaskStore> | McpTaskStore;

/** Cleans up after a store (flushes a database); runs before the store's `close()`. */
export type TaskStoreCleanup = (store: McpTaskStore) => Promise<void>;

/** The state of one test: read its fields inside `it`, never at `describe` time. */
export interface TaskStoreHarness {
  readonly store: McpTaskStore;
  /** The store's clock, in milliseconds since the epoch. */
  now(): number;
  /** Moves the clock on. */
  advance(ms: number): void;
  /** A `NewMcpTask` with a random id, owned by `alice`, with a TTL of one hour. */
  newTask(overrides?: Partial<NewMcpTask>): NewMcpTask;
  /**
   * Asserts the events emitted since the last call, in order, and forgets them. Works for
   * stores that deliver events later (pub/sub): it changes a marker task and waits for
   * that event, so "nothing was emitted" is proven without waiting for a while.
   */
  expectEvents(expected: McpTaskEvent[]): Promise<void>;
}

export const START = Date.parse('2026-03-01T10:00:00.000Z');
export const HOUR = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** A `describe`'s harness: a fresh store before each test, cleaned up and closed after it. */
export function useTaskStore(
  makeStore: TaskStoreFactory,
  cleanup?: TaskStoreCleanup,
): TaskStoreHarness {
  let clock = START;
  let store: McpTaskStore | undefined;
  let events: McpTaskEvent[] = [];
  let unsubscribe: (() => void) | undefined;
  let marker = '';

  beforeEach(async () => {
    clock = START;
    events = [];
    store = await makeStore({ now: () => clock });
    unsubscribe = store.subscribe((event) => events.push(event));
    marker = randomUUID();
    await store.create({ taskId: marker, owner: 'marker', toolName: 'marker', ttlMs: null });
    await harness.expectEvents([]);
  });

  afterEach(async () => {
    unsubscribe?.();
    const finished = store;
    store = undefined;
    if (finished) {
      await cleanup?.(finished);
      await finished.close?.();
    }
  });

  const harness: TaskStoreHarness = {
    get store() {
      if (!store) throw new Error('The task store exists only inside a test');
      return store;
    },
    now: () => clock,
    advance: (ms) => {
      clock += ms;
    },
    newTask: (overrides = {}) => ({
      taskId: randomUUID(),
      owner: 'alice',
      toolName: 'export_catalog',
      ttlMs: HOUR,
      ...overrides,
    }),
    async expectEvents(expected) {
      const message = `marker ${randomUUID()}`;
      await harness.store.setStatusMessage(marker, message);
      const isMarker = (event: McpTaskEvent) =>
        event.type === 'updated' && event.task.statusMessage === message;
      await vi.waitFor(() => expect(events.some(isMarker)).toBe(true));
      const seen = events.splice(0, events.findIndex(isMarker) + 1).slice(0, -1);
      // The marker's own creation is not part of any test.
      const own = seen.filter((event) => !('task' in event) || event.task.taskId !== marker);
      expect(own).toEqual(expected);
    },
  };
  return harness;
}

/** Changes what a caller was given, whether it is a plain copy or a frozen one. */
export function tamper(target: object, change: (target: any) => void): void {
  try {
    change(target);
  } catch {
    // A frozen copy refuses the change, which protects the store just as well.
  }
}
