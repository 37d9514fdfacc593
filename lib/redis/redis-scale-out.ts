import type { EventStore } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type {
  McpChangeBus,
  McpScaleOut,
  McpTaskQueue,
} from '../interfaces/mcp-scale-out.interface.js';
import type { McpTaskStore } from '../interfaces/mcp-task-store.interface.js';
import { BullMqTaskQueue } from './bullmq-task.queue.js';
import { RedisChangeBus } from './redis-change.bus.js';
import { RedisEventLog } from './redis-event.log.js';
import { RedisSessionEventStore } from './redis-session-event.store.js';
import { RedisTaskStore } from './redis-task.store.js';

/** The options of `new RedisScaleOut()`. */
export interface RedisScaleOutOptions {
  /**
   * The app's Redis: a URL (`redis://…`), ioredis options, or an ioredis client. The
   * integration makes its own connections from it (a client given is duplicated, never
   * closed) and closes them when the app shuts down.
   */
  connection: string | RedisOptions | Redis;
  /**
   * Put before every key the integration writes (BullMQ's included).
   * @default 'mcp:'
   */
  keyPrefix?: string;
  /**
   * This instance's name among the others (letters, digits, `_` and `-`): in logs and at
   * the start of the 2025 session ids it opens.
   * @default 8 random hex digits
   */
  instanceId?: string;
  /** The BullMQ queue of `tasks.queue`. */
  queue?: {
    /**
     * How long a worker holds a task without renewing its lock; a task whose instance
     * stopped ends failed one to two of these later.
     * @default 30_000
     */
    lockDurationMs?: number;
    /**
     * How many tasks one instance runs at once (a task waiting for answers keeps its place).
     * @default 50
     */
    concurrency?: number;
  };
  /**
   * How many events of one 2025 stream are kept for a client that resumes it.
   * @default 100
   */
  maxEventsPerStream?: number;
}

/** Something started at `connect()` and closed at the last `close()`. */
interface Part {
  start?(): Promise<void>;
  close(): Promise<void>;
}

const INSTANCE_ID = /^[\w-]{1,64}$/;

/**
 * Several instances of an app on one Redis (docs/scale-out.md): changes on a Redis Stream
 * per server, tasks in Redis hashes with their events on a stream, tasks run on BullMQ
 * (`tasks.queue`), and the events of resumable 2025 streams in Redis lists. Give it to
 * `McpModule.forRoot({ scaleOut })`, with the same `requestState.secret` on every instance.
 *
 * Two connections: one for commands that answer a request (tasks, stream events), which
 * fail fast while Redis is away, so the caller gets an error instead of a hung request;
 * and one for events (changes, task events), whose writes wait in the offline queue and
 * are sent once Redis is back, so that none is lost.
 * @example
 * ```ts
 * McpModule.forRoot({
 *   name: 'catalog', version: '1.0.0',
 *   scaleOut: new RedisScaleOut({ connection: process.env.REDIS_URL! }),
 *   requestState: { secret: process.env.MCP_STATE_SECRET },
 *   tasks: { queue: 'mcp-tasks' },
 * })
 * ```
 * @publicApi
 */
export class RedisScaleOut implements McpScaleOut {
  readonly instanceId: string;
  private readonly logger = new Logger(RedisScaleOut.name);
  private readonly prefix: string;
  private readonly commands: Redis;
  private readonly events: Redis;
  private readonly parts: Part[] = [];
  private users = 0;
  private connecting?: Promise<void>;
  private started = false;
  private closed = false;

  constructor(private readonly options: RedisScaleOutOptions) {
    const { connection, instanceId = randomBytes(4).toString('hex') } = options;
    if (!INSTANCE_ID.test(instanceId)) {
      throw new TypeError(
        `RedisScaleOut: instanceId must be 1 to 64 letters, digits, '_' or '-' (got ${JSON.stringify(instanceId)})`,
      );
    }
    this.instanceId = instanceId;
    this.prefix = options.keyPrefix ?? 'mcp:';
    // Commands fail after one reconnection attempt rather than wait for Redis indefinitely.
    this.commands = connectionOf(connection, { maxRetriesPerRequest: 1, lazyConnect: true });
    // Events wait for Redis (the offline queue keeps them in order) and are never dropped.
    this.events = connectionOf(connection, { maxRetriesPerRequest: null, lazyConnect: true });
    for (const client of [this.commands, this.events]) {
      client.on('error', (error: Error) => this.reportDown(error));
      client.on('ready', () => this.reportUp());
    }
  }

  /**
   * Connects (the first server that calls it) and starts what the servers asked for so far:
   * each server asks for its change bus before it connects, so that the bus reads from
   * before the app serves.
   */
  async connect(): Promise<void> {
    this.users += 1;
    this.connecting ??= this.open();
    await this.connecting;
    await Promise.all(this.parts.map((part) => part.start?.()));
    this.started = true;
  }

  private async open(): Promise<void> {
    try {
      await Promise.all([this.commands.connect(), this.events.connect()]);
    } catch (error) {
      // Nothing else is open yet: the app fails to start, and no reconnection lingers.
      this.closed = true;
      this.commands.disconnect();
      this.events.disconnect();
      const cause = this.lastError?.message ?? (error as Error).message;
      throw new Error(
        `nestjs-mcp/redis: Redis at ${this.where()} cannot be reached (${cause}). ` +
          'The app needs it to start with scaleOut: start Redis, or correct the connection of RedisScaleOut.',
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    this.users -= 1;
    if (this.users > 0 || this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.parts.map((part) => part.close()));
    await Promise.allSettled([this.commands.quit(), this.events.quit()]);
  }

  changeBus(server: string): McpChangeBus {
    return this.own(
      new RedisChangeBus({
        client: this.events,
        prefix: this.prefix,
        server,
        instanceId: this.instanceId,
      }),
    );
  }

  taskStore(server: string, options: { readonly maxTasks?: number }): McpTaskStore {
    const events = this.own(
      new RedisEventLog({
        client: this.events,
        key: `${this.prefix}task-events:${server}`,
        instanceId: this.instanceId,
      }),
    );
    return new RedisTaskStore({
      client: this.commands,
      keyPrefix: `${this.prefix}${server}:`,
      events,
      ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
    });
  }

  taskQueue(server: string, queue: string): McpTaskQueue {
    return this.own(
      new BullMqTaskQueue({
        connection: this.commands,
        name: `${server}.${queue}`,
        prefix: this.prefix.replace(/:$/, ''),
        ...this.options.queue,
      }),
    );
  }

  sessionEventStore(server: string, sessionId: string): EventStore {
    return new RedisSessionEventStore({
      client: this.commands,
      keyPrefix: `${this.prefix}${server}:session:${sessionId}:`,
      ...(this.options.maxEventsPerStream !== undefined && {
        maxEventsPerStream: this.options.maxEventsPerStream,
      }),
    });
  }

  /** Keeps a part to start at `connect()` (or now, when that is over) and close at the end. */
  private own<T extends Part>(part: T): T {
    this.parts.push(part);
    if (this.started) {
      void part.start?.().catch((error: unknown) => this.reportDown(error as Error));
    }
    return part;
  }

  private down = false;
  private lastError?: Error;

  /** Where the commands connect, without credentials. */
  private where(): string {
    const { host, port, path } = this.commands.options;
    return path ?? `${host}:${port}`;
  }

  private reportDown(error: Error): void {
    this.lastError = error;
    if (this.down || !this.started || this.closed) return;
    this.down = true;
    this.logger.error(
      `Redis is unavailable (${error.message}): tasks answer with an error and changes ` +
        `wait to be shared until it is back; stateless calls go on (instance ${this.instanceId}).`,
    );
  }

  private reportUp(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`Redis is back: instance ${this.instanceId} shares changes and tasks again.`);
  }
}

/** A connection of the integration's own, from what the app gave. */
function connectionOf(connection: RedisScaleOutOptions['connection'], overrides: RedisOptions) {
  if (connection instanceof Redis) return connection.duplicate(overrides);
  if (typeof connection === 'string') return new Redis(connection, overrides);
  return new Redis({ ...connection, ...overrides });
}
