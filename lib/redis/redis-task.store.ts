import { Logger } from '@nestjs/common';
import type { CallToolResult, InputRequests } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';
import type {
  McpTask,
  McpTaskError,
  McpTaskEvent,
  McpTaskPage,
  McpTaskStore,
  NewMcpTask,
} from '../interfaces/mcp-task-store.interface.js';
import {
  decodeCursor,
  decodeTask,
  encodeCursor,
  encodeNewTask,
  encodeQuestions,
  fieldsOf,
  ownerMember,
} from './redis-task.codec.js';
import {
  CREATE_SCRIPT,
  LIST_SCRIPT,
  RESOLVE_INPUT_SCRIPT,
  SWEEP_SCRIPT,
  TRANSITION_SCRIPT,
  redisUnavailable,
  runScript,
} from './redis-task.scripts.js';
import { TaskEventFanOut, type McpTaskEventChannel } from './redis-task.events.js';
import { workingTask } from '../tasks/task-listeners.js';

export type { McpTaskEventChannel } from './redis-task.events.js';

/** The options of `new RedisTaskStore()`. */
export interface RedisTaskStoreOptions {
  /** The connection, shared with the rest of the integration; the store never closes it. */
  readonly client: Redis;
  /** Put before every key of the store, e.g. `'mcp:catalog:'`. */
  readonly keyPrefix: string;
  /** The events of the other instances. */
  readonly events: McpTaskEventChannel;
  /**
   * The most tasks kept at once, over every instance. When full, expired tasks go first,
   * then the task that finished longest ago; a new task is refused only when every task is
   * still running. Without it the store has no limit of its own (TTLs bound it).
   */
  readonly maxTasks?: number;
  /**
   * How often expired tasks are removed, in milliseconds (reads check the TTL themselves).
   * @default 1_000
   */
  readonly sweepIntervalMs?: number;
  /** The clock, in milliseconds since the epoch (tests inject their own). @default Date.now */
  readonly now?: () => number;
}

type Outcome = 'missing' | 'final' | 'unchanged' | 'changed';

const DEFAULT_PAGE_SIZE = 100;
const SWEEP_BATCH = 500;
const FINAL = ['completed', 'failed', 'cancelled'] as const;

/**
 * The `McpTaskStore` of several instances (docs/scale-out.md): every task in Redis, read
 * and changed by any instance, each change one Lua script. Behaves as `InMemoryTaskStore`
 * does, events included: they reach this instance's subscribers at once and the other
 * instances' through `events`.
 * @publicApi
 */
export class RedisTaskStore implements McpTaskStore {
  private readonly logger = new Logger(RedisTaskStore.name);
  private readonly fanOut: TaskEventFanOut;
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly maxTasks: number | undefined;
  private readonly now: () => number;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private sweeping = false;
  private sweepFailed = false;

  constructor(options: RedisTaskStoreOptions) {
    this.client = options.client;
    this.prefix = options.keyPrefix;
    this.maxTasks = options.maxTasks;
    this.now = options.now ?? Date.now;
    const sweepIntervalMs = options.sweepIntervalMs ?? 1_000;
    if (this.maxTasks !== undefined && (!Number.isInteger(this.maxTasks) || this.maxTasks < 1)) {
      throw new RangeError(`RedisTaskStore: maxTasks must be a whole number above 0`);
    }
    if (!Number.isFinite(sweepIntervalMs) || sweepIntervalMs <= 0) {
      throw new RangeError(`RedisTaskStore: sweepIntervalMs must be a number above 0`);
    }
    this.fanOut = new TaskEventFanOut(options.events);
    // Unref'd: a store left open must not keep the process alive.
    this.sweeper = setInterval(() => void this.sweepOnTimer(), sweepIntervalMs).unref();
  }

  async create(task: NewMcpTask): Promise<McpTask> {
    const now = this.now();
    const created = workingTask(task, now);
    const expiresAt = task.ttlMs === null ? undefined : now + task.ttlMs;
    const member = ownerMember(now, task.taskId);
    const reply = (await runScript(
      this.client,
      CREATE_SCRIPT,
      [
        this.key(`task:${task.taskId}`),
        this.key(`owner:${task.owner}`),
        this.key('expiry'),
        this.key('index'),
        this.key('finished'),
        this.key('sequence'),
      ],
      [
        now,
        this.prefix,
        task.taskId,
        task.owner,
        member,
        expiresAt ?? '',
        // Relative to the store's clock, not Redis': with an injected clock PEXPIREAT would
        // drop the hash at once. Redis' expiry only frees memory; reads check the TTL.
        expiresAt === undefined ? '' : Math.max(1, expiresAt - now),
        this.maxTasks ?? '',
        ...encodeNewTask(created, expiresAt),
      ],
    )) as [string, ...unknown[]];
    if (reply[0] === 'exists') throw new Error(`Task ${task.taskId} exists already`);
    if (reply[0] === 'full') {
      throw new Error(
        `The task store is full: ${String(reply[1])} running tasks (tasks.maxTasks is ` +
          `${this.maxTasks}). Raise it with McpModule.forRoot({ tasks: { maxTasks } }), or ` +
          `wait for a task to finish.`,
      );
    }
    for (const taskId of reply[1] as string[]) await this.fanOut.emit({ type: 'expired', taskId });
    await this.fanOut.emit({ type: 'updated', task: created });
    return structuredClone(created);
  }

  async get(taskId: string): Promise<McpTask | undefined> {
    let fields: Record<string, string>;
    try {
      fields = await this.client.hgetall(this.key(`task:${taskId}`));
    } catch (error) {
      throw redisUnavailable(error);
    }
    if (fields.taskId === undefined) return undefined;
    const expiresAt = fields._expiresAt;
    if (expiresAt !== undefined && this.now() >= Number(expiresAt)) return undefined;
    return decodeTask(fields);
  }

  async setStatus(
    taskId: string,
    _status: 'working',
    statusMessage?: string,
  ): Promise<McpTask | undefined> {
    const message = statusMessage === undefined ? [] : ['statusMessage', statusMessage];
    return this.transition(taskId, {
      clear: 'questions',
      set: ['status', 'working', ...message],
      remove: statusMessage === undefined ? ['statusMessage'] : [],
    });
  }

  async setStatusMessage(taskId: string, statusMessage: string): Promise<McpTask | undefined> {
    return this.transition(taskId, { set: ['statusMessage', statusMessage] });
  }

  async requireInput(
    taskId: string,
    inputRequests: InputRequests,
    requestState?: string,
  ): Promise<McpTask | undefined> {
    return this.transition(taskId, {
      clear: 'round',
      set: [
        'status',
        'input_required',
        ...(requestState === undefined ? [] : ['requestState', requestState]),
      ],
      raw: encodeQuestions(inputRequests),
      remove: requestState === undefined ? ['requestState'] : [],
    });
  }

  async resolveInput(
    taskId: string,
    inputResponses: Readonly<Record<string, unknown>>,
  ): Promise<McpTask | undefined> {
    const answers = Object.entries(inputResponses).flatMap(([key, answer]) => [
      key,
      JSON.stringify(answer),
    ]);
    const now = this.now();
    const reply = (await runScript(
      this.client,
      RESOLVE_INPUT_SCRIPT,
      [this.key(`task:${taskId}`)],
      [now, JSON.stringify(new Date(now).toISOString()), ...answers],
    )) as [string, unknown?, number?];
    if (reply[0] === 'missing') return undefined;
    const task = decodeTask(fieldsOf(reply[1]));
    if (reply[0] === 'changed') {
      await this.fanOut.emit({ type: 'updated', task });
      // Only the call whose answers emptied the round tells the runner.
      if (reply[2] === 1) await this.fanOut.emit({ type: 'input-complete', task });
    }
    return task;
  }

  async complete(taskId: string, result: CallToolResult): Promise<McpTask | undefined> {
    return this.finish(taskId, 'completed', ['result', result]);
  }

  async fail(taskId: string, error: McpTaskError): Promise<McpTask | undefined> {
    return this.finish(taskId, 'failed', ['error', error]);
  }

  async requestCancel(taskId: string): Promise<McpTask | undefined> {
    const [outcome, task] = await this.apply(taskId, finishing('cancelled', []));
    if (outcome === 'changed') await this.fanOut.emit({ type: 'cancel-requested', taskId });
    return task;
  }

  async list(owner: string, page: { cursor?: string; limit?: number } = {}): Promise<McpTaskPage> {
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`Invalid task list limit ${limit}: a whole number above 0`);
    }
    const start = page.cursor === undefined ? '-' : `(${decodeCursor(page.cursor)}`;
    // One more than the page: whether there is a next page is known without another call.
    const rows = (await runScript(
      this.client,
      LIST_SCRIPT,
      [this.key(`owner:${owner}`)],
      [this.now(), this.prefix, start, limit + 1],
    )) as [string, unknown][];
    const shown = rows.slice(0, limit);
    return {
      tasks: shown.map(([, fields]) => decodeTask(fieldsOf(fields))),
      ...(rows.length > limit ? { nextCursor: encodeCursor(shown.at(-1)![0]) } : {}),
    };
  }

  subscribe(listener: (event: McpTaskEvent) => void): () => void {
    return this.fanOut.subscribe(listener);
  }

  async sweep(now: number = this.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = (await runScript(
        this.client,
        SWEEP_SCRIPT,
        [this.key('index'), this.key('expiry'), this.key('finished')],
        [now, this.prefix, SWEEP_BATCH],
      )) as string[];
      // Only the instance whose script removed a task announces it: once over all of them.
      for (const taskId of ids) await this.fanOut.emit({ type: 'expired', taskId });
      removed += ids.length;
      if (ids.length < SWEEP_BATCH) return removed;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.fanOut.close();
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  private finish(
    taskId: string,
    status: (typeof FINAL)[number],
    field: [name: string, value: unknown],
  ): Promise<McpTask | undefined> {
    return this.transition(taskId, finishing(status, field));
  }

  private async transition(taskId: string, change: Change): Promise<McpTask | undefined> {
    return (await this.apply(taskId, change))[1];
  }

  /** Runs one transition; `updated` follows a change, a final or unknown task has none. */
  private async apply(taskId: string, change: Change): Promise<[Outcome, McpTask | undefined]> {
    const now = this.now();
    const set: (string | number)[] = [];
    for (let index = 0; index + 1 < change.set.length; index += 2) {
      set.push(change.set[index] as string, JSON.stringify(change.set[index + 1]));
    }
    set.push(...(change.raw ?? []));
    const reply = (await runScript(
      this.client,
      TRANSITION_SCRIPT,
      [this.key(`task:${taskId}`), this.key('finished')],
      [
        now,
        JSON.stringify(new Date(now).toISOString()),
        change.final ? '1' : '0',
        change.clear === 'round' ? '2' : change.clear === 'questions' ? '1' : '0',
        set.length / 2,
        ...set,
        ...(change.remove ?? []),
      ],
    )) as [Outcome, unknown?];
    if (reply[0] === 'missing') return ['missing', undefined];
    const task = decodeTask(fieldsOf(reply[1]));
    if (reply[0] === 'changed') await this.fanOut.emit({ type: 'updated', task });
    return [reply[0], task];
  }

  private async sweepOnTimer(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
      this.sweepFailed = false;
    } catch (error) {
      // Once per outage, not every second; the next sweep takes what this one missed.
      if (!this.sweepFailed) this.logger.warn(`Task sweep failed: ${(error as Error).message}`);
      this.sweepFailed = true;
    } finally {
      this.sweeping = false;
    }
  }
}

/** One transition: JSON fields to set (name, value, ...), raw pairs, fields to delete. */
interface Change {
  readonly set: readonly unknown[];
  readonly raw?: readonly string[];
  readonly remove?: readonly string[];
  /** What goes of the input state: the questions, or the whole round (answers too). */
  readonly clear?: 'questions' | 'round';
  readonly final?: boolean;
}

/** A final status: the questions and answers of the last round are no longer needed. */
function finishing(status: (typeof FINAL)[number], field: readonly unknown[]): Change {
  return {
    set: ['status', status, ...field],
    clear: 'round',
    remove: ['requestState'],
    final: true,
  };
}
