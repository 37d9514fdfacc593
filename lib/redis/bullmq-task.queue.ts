import { Logger, type LoggerService } from '@nestjs/common';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { McpTaskJob, McpTaskQueue } from '../interfaces/mcp-scale-out.interface.js';
import { errorMessage, positiveInteger } from '../utils/value-checks.util.js';
import {
  duplicateForCommands,
  duplicateForWorkers,
  isConnectionFailure,
} from './bullmq-connections.js';
import { RedisUnavailableError } from './redis-unavailable.error.js';

/**
 * How long closing waits for `QueueEvents`. BullMQ waits for its blocking connection's
 * `end`, which ioredis never emits for a connection caught between two reconnections (its
 * socket is already gone): after Redis came back, shutdown could hang there. Its
 * reconnection is cancelled either way, so nothing is left running after the bound.
 */
const EVENTS_CLOSE_MS = 1_000;

/** `pending`, or nothing once `ms` have passed, whichever comes first. */
function within(ms: number, pending: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([pending, bound]).finally(() => clearTimeout(timer));
}

/** Options of {@link BullMqTaskQueue}. */
export interface BullMqTaskQueueOptions {
  /** The integration's connection: duplicated for BullMQ, never closed here. */
  readonly connection: Redis;
  /** The BullMQ queue name, e.g. `'mcp-tasks'` (no `:`). */
  readonly name: string;
  /**
   * Put before every BullMQ key of the queue.
   * @default 'mcp'
   */
  readonly prefix?: string;
  /**
   * How long a worker holds a job without renewing its lock (it renews every half of it).
   * A job whose instance stopped is reported lost about one to two `stalledIntervalMs`
   * after its lock ran out; an instance whose event loop is blocked for longer than this
   * loses its jobs as if it had stopped.
   * @default 30_000
   */
  readonly lockDurationMs?: number;
  /**
   * How often the workers look for jobs whose lock ran out.
   * @default lockDurationMs
   */
  readonly stalledIntervalMs?: number;
  /**
   * How many tasks this instance's worker runs at once. A task waiting for answers keeps
   * its job (and its place) while it waits, so this is higher than a CPU-bound queue's.
   * @default 50
   */
  readonly concurrency?: number;
  /**
   * How long `enqueue` waits for Redis before it rejects ("Redis is unavailable: ...").
   * @default 5_000
   */
  readonly commandTimeoutMs?: number;
  /** @default new Logger(BullMqTaskQueue.name) */
  readonly logger?: LoggerService;
}

/** The one job name: a job is one whole task, its rounds of questions included. */
const JOB_NAME = 'task';
/**
 * How long a finished job is kept, in seconds. While it is kept, adding the same task again
 * is a no-op (BullMQ dedupes by job id), and a lost job's data can still be read by the
 * instances that report it.
 */
const KEEP_FINISHED_S = 3_600;
/** What BullMQ's stalled check records when a job stalled more often than `maxStalledCount`. */
const STALLED_REASON = 'job stalled more than allowable limit';
/** What the model is told of a task whose instance stopped. */
export const LOST_TASK_REASON =
  'The instance running this task stopped before it finished; start the task again.';

/** BullMQ job ids may not contain `:`; a task id is a UUID. */
function jobIdOf(job: Pick<McpTaskJob, 'taskId'>): string {
  return job.taskId;
}

/**
 * The task queue of `nestjs-mcp/redis` (docs/scale-out.md) on BullMQ: a task enqueued by
 * any instance runs once, on whichever instance called `work()` takes it, and keeps its job
 * (the lock renewed) for as long as `run` is pending, questions to the client included.
 *
 * A task is never run twice: jobs have one attempt and `maxStalledCount: 0`, so a job
 * whose worker stopped (its lock ran out) is failed by the next stalled check instead of
 * being handed to another worker; a tool's method need not be idempotent. Such a failure
 * reaches `onLost` on every instance that registered a listener, through `QueueEvents`:
 * several instances may each report the same lost task once (the task store ignores a
 * transition of a finished task). Lost tasks are found by the stalled check of a live
 * worker: while no instance calls `work()`, a stopped worker's task stays as it was.
 */
export class BullMqTaskQueue implements McpTaskQueue {
  private readonly name: string;
  private readonly prefix: string;
  private readonly lockDurationMs: number;
  private readonly stalledIntervalMs: number;
  private readonly concurrency: number;
  private readonly commandTimeoutMs: number;
  private readonly logger: LoggerService;
  private readonly connection: Redis;

  private readonly commandConnection: Redis;
  private readonly queue: Queue<McpTaskJob, void, string>;
  private workerConnection?: Redis;
  private worker?: Worker<McpTaskJob, void, string>;
  private events?: QueueEvents;
  private readonly lostListeners: ((job: McpTaskJob, reason: string) => void)[] = [];
  private lastError?: string;
  private closing?: Promise<void>;

  constructor(options: BullMqTaskQueueOptions) {
    this.connection = options.connection;
    this.name = options.name;
    this.prefix = options.prefix ?? 'mcp';
    this.lockDurationMs = positive('lockDurationMs', options.lockDurationMs ?? 30_000);
    this.stalledIntervalMs = positive(
      'stalledIntervalMs',
      options.stalledIntervalMs ?? this.lockDurationMs,
    );
    this.concurrency = positive('concurrency', options.concurrency ?? 50);
    this.commandTimeoutMs = positive('commandTimeoutMs', options.commandTimeoutMs ?? 5_000);
    this.logger = options.logger ?? new Logger(BullMqTaskQueue.name);
    this.commandConnection = duplicateForCommands(this.connection, this.commandTimeoutMs);
    this.queue = new Queue<McpTaskJob, void, string>(this.name, {
      connection: this.commandConnection,
      prefix: this.prefix,
    });
    this.queue.on('error', (error) => this.connectionError('queue', error));
    this.watch(this.commandConnection, 'queue');
  }

  async enqueue(job: McpTaskJob): Promise<void> {
    if (this.closing) throw new Error(`The task queue "${this.name}" is closed.`);
    await this.untilReady();
    try {
      await this.queue.add(JOB_NAME, job, {
        jobId: jobIdOf(job),
        attempts: 1,
        removeOnComplete: { age: KEEP_FINISHED_S },
        removeOnFail: { age: KEEP_FINISHED_S },
      });
    } catch (error) {
      if (isConnectionFailure(error, this.commandConnection)) {
        // The outage's own error ("connect ECONNREFUSED ...") says more than the command's.
        throw new RedisUnavailableError(this.lastError ?? error);
      }
      throw error;
    }
  }

  work(run: (job: McpTaskJob) => Promise<void>): void {
    if (this.closing) throw new Error(`The task queue "${this.name}" is closed.`);
    if (this.worker) throw new Error(`work() was already called on the task queue "${this.name}".`);
    // Arity 1: BullMQ passes an abort signal only to a processor that takes three arguments,
    // and the integration aborts runs through the task runner, not through BullMQ.
    const processor = async (job: Job<McpTaskJob, void, string>): Promise<void> => {
      try {
        await run(job.data);
      } catch (error) {
        this.logger.error(
          `The task ${job.id} of "${this.name}" failed: ${errorMessage(error)}`,
          error instanceof Error ? error.stack : undefined,
        );
        // A fixed wording, so that no error of a method can pass for a lost task.
        throw new Error(`The task failed: ${errorMessage(error)}`, { cause: error });
      }
    };
    this.worker = new Worker<McpTaskJob, void, string>(this.name, processor, {
      connection: this.workerRedis(),
      prefix: this.prefix,
      concurrency: this.concurrency,
      lockDuration: this.lockDurationMs,
      stalledInterval: this.stalledIntervalMs,
      maxStalledCount: 0,
    });
    this.worker.on('error', (error) => this.connectionError('worker', error));
  }

  onLost(listener: (job: McpTaskJob, reason: string) => void): void {
    if (this.closing) throw new Error(`The task queue "${this.name}" is closed.`);
    this.lostListeners.push(listener);
    if (this.events) return;
    // Every instance that listens reads the queue's event stream, so a task lost by any
    // instance is seen here whether or not this instance works jobs itself. Reading starts
    // at the newest event once the connection is up; a failure before that is not replayed.
    this.events = new QueueEvents(this.name, {
      connection: this.workerRedis(),
      prefix: this.prefix,
    });
    this.events.on('error', (error) => this.connectionError('events', error));
    this.events.on('failed', ({ jobId, failedReason }) => {
      if (failedReason === STALLED_REASON) void this.reportLost(jobId);
    });
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    // `force`: the worker does not wait for running jobs (the integration aborted them
    // first). A task still running has its lock run out and is reported lost by the
    // instances that remain; its task is final by then, so the store keeps what it says.
    const closed = await Promise.allSettled([
      this.worker?.close(true),
      this.events && within(EVENTS_CLOSE_MS, this.events.close()),
      this.queue.close(),
    ]);
    // The connections BullMQ was given stay open (it closes only its own duplicates).
    this.workerConnection?.disconnect();
    this.commandConnection.disconnect();
    for (const result of closed) {
      if (result.status === 'rejected') {
        this.logger.warn(
          `The task queue "${this.name}" did not close cleanly: ${errorMessage(result.reason)}`,
        );
      }
    }
  }

  /** Waits for the Queue's connection, at most `commandTimeoutMs`. */
  private async untilReady(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.commandTimeoutMs);
    });
    try {
      const outcome = await Promise.race([this.queue.waitUntilReady(), timedOut]);
      if (outcome === 'timeout') {
        // The job is not added: nothing would add it later once Redis comes back.
        throw new RedisUnavailableError(
          this.lastError ??
            `no connection within ${this.commandTimeoutMs} ms (${this.commandConnection.status})`,
        );
      }
    } catch (error) {
      if (error instanceof RedisUnavailableError) throw error;
      throw new RedisUnavailableError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private workerRedis(): Redis {
    if (!this.workerConnection) {
      this.workerConnection = duplicateForWorkers(this.connection);
      this.watch(this.workerConnection, 'worker');
    }
    return this.workerConnection;
  }

  /**
   * Listens to a connection of ours: ioredis prints an error nobody listens to, and BullMQ
   * listens only while it uses the connection (QueueEvents only duplicates the worker's).
   */
  private watch(connection: Redis, source: string): void {
    connection.on('error', (error: unknown) => this.connectionError(source, error));
    connection.on('ready', () => (this.lastError = undefined));
  }

  private async reportLost(jobId: string | undefined): Promise<void> {
    if (!jobId || this.closing) return;
    let job: Job<McpTaskJob, void, string> | undefined;
    try {
      job = await this.queue.getJob(jobId);
    } catch (error) {
      this.logger.warn(`The lost task ${jobId} could not be read: ${errorMessage(error)}`);
      return;
    }
    if (!job || job.name !== JOB_NAME) return;
    for (const listener of this.lostListeners) {
      try {
        listener(job.data, LOST_TASK_REASON);
      } catch (error) {
        this.logger.error(`A listener of lost tasks failed: ${errorMessage(error)}`);
      }
    }
  }

  /**
   * BullMQ reports every failed reconnect of every connection; one line per outage and
   * message is enough (the same message again is the same outage).
   */
  private connectionError(source: string, error: unknown): void {
    const message = errorMessage(error);
    if (message === this.lastError) return;
    this.lastError = message;
    this.logger.warn(`Redis (task queue "${this.name}", ${source}): ${message}`);
  }
}

const positive = (name: string, value: number) => positiveInteger('BullMqTaskQueue', name, value);
