import type { CallToolResult, InputRequests } from '@modelcontextprotocol/server';
import type {
  McpTask,
  McpTaskError,
  McpTaskEvent,
  McpTaskPage,
  McpTaskStore,
  NewMcpTask,
} from '../interfaces/mcp-task-store.interface.js';
import { TaskListeners, workingTask } from './task-listeners.js';
import { isFinal } from './task-wire.js';

/** The options of `new InMemoryTaskStore()`. */
export interface InMemoryTaskStoreOptions {
  /**
   * The most tasks kept at once. When full, the oldest finished task is evicted; a new
   * task is refused only when every task is still running.
   * @default 1_000
   */
  maxTasks?: number;
  /**
   * How often expired tasks are removed, in milliseconds (an expired task is never read
   * in between: `get` and `list` check the TTL themselves).
   * @default 60_000
   */
  sweepIntervalMs?: number;
  /** The clock, in milliseconds since the epoch (tests inject their own). @default Date.now */
  now?: () => number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const DEFAULT_PAGE_SIZE = 100;

const isFinished = (task: McpTask) => isFinal(task.status);

/** What a caller gets: its own copy, which it may change without changing the store. */
const copy = <T extends McpTask | undefined>(task: T): T => task && structuredClone(task);

/** Frozen all the way down, so that no path inside the store can change a stored task. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

/** A position in the newest-first order: a cursor names the last task of its page. */
type Position = readonly [createdAt: string, taskId: string];

/** Newest first; tasks created in the same millisecond by id, so the order is total. */
function compareNewestFirst(a: Position, b: Position): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? 1 : -1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function encodeCursor(task: McpTask): string {
  return Buffer.from(JSON.stringify([task.createdAt, task.taskId])).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if (
    !Array.isArray(position) ||
    position.length !== 2 ||
    !position.every((part) => typeof part === 'string')
  ) {
    throw new Error(`Invalid task list cursor "${cursor}": pass a nextCursor from a previous page`);
  }
  return position as unknown as Position;
}

/**
 * The default `McpTaskStore`: tasks in a map of this process, gone at restart and not
 * shared between instances (a shared store such as Redis serves several instances).
 * Stored tasks are frozen, and every caller and listener gets its own copy, so nothing
 * outside the store changes what it keeps.
 * @publicApi
 */
export class InMemoryTaskStore implements McpTaskStore {
  private readonly tasks = new Map<string, McpTask>();
  private readonly listeners = new TaskListeners();
  private readonly maxTasks: number;
  private readonly now: () => number;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 1_000;
    this.now = options.now ?? Date.now;
    const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    if (!Number.isInteger(this.maxTasks) || this.maxTasks < 1) {
      throw new RangeError(`InMemoryTaskStore: maxTasks must be a whole number above 0`);
    }
    if (!Number.isFinite(sweepIntervalMs) || sweepIntervalMs <= 0) {
      throw new RangeError(`InMemoryTaskStore: sweepIntervalMs must be a number above 0`);
    }
    // Unref'd: a store left open must not keep the process alive.
    this.sweeper = setInterval(() => void this.sweep(), sweepIntervalMs).unref();
  }

  async create(task: NewMcpTask): Promise<McpTask> {
    const now = this.now();
    const existing = this.tasks.get(task.taskId);
    if (existing && !this.isExpired(existing, now)) {
      throw new Error(`Task ${task.taskId} exists already`);
    }
    if (existing) this.remove(existing.taskId);
    this.makeRoom(now);
    const created = workingTask(task, now);
    const stored = this.store(created);
    this.emit({ type: 'updated', task: stored });
    return copy(stored);
  }

  async get(taskId: string): Promise<McpTask | undefined> {
    return copy(this.live(taskId));
  }

  async setStatus(
    taskId: string,
    _status: 'working',
    statusMessage?: string,
  ): Promise<McpTask | undefined> {
    return copy(
      this.transition(taskId, (task) => {
        task.status = 'working';
        delete task.inputRequests;
        if (statusMessage === undefined) delete task.statusMessage;
        else task.statusMessage = statusMessage;
      }),
    );
  }

  async setStatusMessage(taskId: string, statusMessage: string): Promise<McpTask | undefined> {
    return copy(
      this.transition(taskId, (task) => {
        task.statusMessage = statusMessage;
      }),
    );
  }

  async requireInput(
    taskId: string,
    inputRequests: InputRequests,
    requestState?: string,
  ): Promise<McpTask | undefined> {
    return copy(
      this.transition(taskId, (task) => {
        task.status = 'input_required';
        task.inputRequests = structuredClone(inputRequests);
        task.inputResponses = {};
        if (requestState === undefined) delete task.requestState;
        else task.requestState = requestState;
      }),
    );
  }

  async resolveInput(
    taskId: string,
    inputResponses: Readonly<Record<string, unknown>>,
  ): Promise<McpTask | undefined> {
    const task = this.live(taskId);
    if (!task) return undefined;
    const pending = task.inputRequests ?? {};
    // Only questions still pending are answered: a key answered before, or never asked,
    // is ignored (input keys are unique over the task's lifetime).
    const accepted = Object.entries(inputResponses).filter(([key]) => Object.hasOwn(pending, key));
    if (task.status !== 'input_required' || accepted.length === 0) return copy(task);
    const remaining = Object.entries(pending).filter(
      ([key]) => !accepted.some(([answered]) => answered === key),
    );
    const updated = this.transition(taskId, (draft) => {
      draft.inputResponses = {
        ...draft.inputResponses,
        ...Object.fromEntries(structuredClone(accepted)),
      };
      if (remaining.length > 0) {
        draft.inputRequests = Object.fromEntries(remaining);
      } else {
        draft.status = 'working';
        delete draft.inputRequests;
      }
    });
    if (updated && remaining.length === 0) this.emit({ type: 'input-complete', task: updated });
    return copy(updated);
  }

  async complete(taskId: string, result: CallToolResult): Promise<McpTask | undefined> {
    return copy(
      this.finish(taskId, 'completed', (task) => {
        task.result = structuredClone(result);
      }),
    );
  }

  async fail(taskId: string, error: McpTaskError): Promise<McpTask | undefined> {
    return copy(
      this.finish(taskId, 'failed', (task) => {
        task.error = structuredClone(error);
      }),
    );
  }

  async requestCancel(taskId: string): Promise<McpTask | undefined> {
    const task = this.live(taskId);
    if (!task) return undefined;
    if (isFinished(task)) return copy(task);
    const cancelled = this.finish(taskId, 'cancelled', () => {});
    this.emit({ type: 'cancel-requested', taskId });
    return copy(cancelled);
  }

  async list(owner: string, page: { cursor?: string; limit?: number } = {}): Promise<McpTaskPage> {
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`Invalid task list limit ${limit}: a whole number above 0`);
    }
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const now = this.now();
    const tasks = [...this.tasks.values()]
      .filter((task) => task.owner === owner && !this.isExpired(task, now))
      .filter((task) => !after || compareNewestFirst([task.createdAt, task.taskId], after) > 0)
      .toSorted((a, b) => compareNewestFirst([a.createdAt, a.taskId], [b.createdAt, b.taskId]));
    const shown = tasks.slice(0, limit);
    return {
      tasks: shown.map((task) => copy(task)),
      ...(tasks.length > limit ? { nextCursor: encodeCursor(shown.at(-1)!) } : {}),
    };
  }

  subscribe(listener: (event: McpTaskEvent) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  async sweep(now: number = this.now()): Promise<number> {
    const expired = [...this.tasks.values()].filter((task) => this.isExpired(task, now));
    for (const task of expired) this.remove(task.taskId);
    return expired.length;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.listeners.clear();
  }

  /** The task, unless it is unknown or its TTL ran out (swept or not yet). */
  private live(taskId: string): McpTask | undefined {
    const task = this.tasks.get(taskId);
    return task && !this.isExpired(task, this.now()) ? task : undefined;
  }

  private isExpired(task: McpTask, now: number): boolean {
    return task.ttlMs !== null && now >= Date.parse(task.createdAt) + task.ttlMs;
  }

  /**
   * Applies `change` to a copy of a live, unfinished task, stores it and tells listeners;
   * resolves to the stored (frozen) task, a final one unchanged.
   */
  private transition(
    taskId: string,
    change: (task: Mutable<McpTask>) => void,
  ): McpTask | undefined {
    const task = this.live(taskId);
    if (!task) return undefined;
    if (isFinished(task)) return task;
    const draft: Mutable<McpTask> = structuredClone(task);
    change(draft);
    draft.lastUpdatedAt = new Date(this.now()).toISOString();
    const stored = this.store(draft);
    this.emit({ type: 'updated', task: stored });
    return stored;
  }

  /** A final status: the questions and answers of the last round are no longer needed. */
  private finish(
    taskId: string,
    status: 'completed' | 'failed' | 'cancelled',
    change: (task: Mutable<McpTask>) => void,
  ): McpTask | undefined {
    return this.transition(taskId, (task) => {
      task.status = status;
      delete task.inputRequests;
      delete task.inputResponses;
      delete task.requestState;
      change(task);
    });
  }

  private store(task: McpTask): McpTask {
    const frozen = deepFreeze(task);
    this.tasks.set(task.taskId, frozen);
    return frozen;
  }

  /** Deletes a task that expired or was evicted; its runner learns it through `expired`. */
  private remove(taskId: string): void {
    this.tasks.delete(taskId);
    this.emit({ type: 'expired', taskId });
  }

  /**
   * Frees a slot for a new task when the store is full: expired tasks go first, then the
   * finished task updated longest ago. Running tasks are never evicted.
   */
  private makeRoom(now: number): void {
    if (this.tasks.size < this.maxTasks) return;
    for (const task of this.tasks.values()) {
      if (this.isExpired(task, now)) this.remove(task.taskId);
    }
    if (this.tasks.size < this.maxTasks) return;
    const oldestFinished = [...this.tasks.values()]
      .filter(isFinished)
      .toSorted(
        (a, b) =>
          a.lastUpdatedAt.localeCompare(b.lastUpdatedAt) || a.createdAt.localeCompare(b.createdAt),
      )
      .at(0);
    if (!oldestFinished) {
      throw new Error(
        `The task store is full: ${this.tasks.size} running tasks (tasks.maxTasks is ` +
          `${this.maxTasks}). Raise it with McpModule.forRoot({ tasks: { maxTasks } }), or ` +
          `wait for a task to finish.`,
      );
    }
    this.remove(oldestFinished.taskId);
  }

  private emit(event: McpTaskEvent): void {
    this.listeners.emit(event);
  }
}
