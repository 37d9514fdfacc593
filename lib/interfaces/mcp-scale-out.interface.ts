import type { AuthInfo, ClientCapabilities, EventStore } from '@modelcontextprotocol/server';
import type { McpTaskStore } from './mcp-task-store.interface.js';

/** A change clients may be told about. */
export type McpChange =
  | { readonly kind: 'tools' | 'prompts' | 'resources' }
  | { readonly kind: 'resource'; readonly uri: string };

/**
 * The changes of one server shared by every instance (docs/scale-out.md). An instance
 * tells its own listeners of its own changes at once; the bus carries them to the other
 * instances, each of which hears every change of the others exactly once.
 * @publicApi
 */
export interface McpChangeBus {
  /** Hands a change of this instance to the others; resolves once the bus accepted it. */
  publish(change: McpChange): Promise<void>;
  /** Calls `listener` with every change another instance publishes, until unsubscribed. */
  subscribe(listener: (change: McpChange) => void): () => void;
}

/**
 * One task for a queue (`tasks.queue`): everything a worker on any instance needs to run
 * the tool's method, as JSON. The caller was checked in the request (arguments validated,
 * guards passed); the worker runs interceptors, pipes and the method, with the caller's
 * identity from here, until the task ends (its rounds of questions included).
 * @publicApi
 */
export interface McpTaskJob {
  /** A job is unique by its task: the same task enqueued twice runs once. */
  readonly taskId: string;
  /** The tool's listed name. */
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The revision the call came on: `'modern'` (2026-07-28) or `'legacy'` (2025-11-25). */
  readonly era: 'modern' | 'legacy';
  readonly locale?: string;
  /** The JSON-RPC id of the `tools/call` that created the task. */
  readonly requestId?: string | number;
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * The caller, as the request's guards verified it: its identity (what the task and its
   * state are bound to), and the OAuth `AuthInfo` and `request.user` the worker's
   * interceptors and method read, as JSON. Never the credentials: no `token`, no headers.
   */
  readonly caller: {
    readonly identity?: string;
    readonly authInfo?: Omit<AuthInfo, 'token'>;
    readonly user?: unknown;
  };
  /** How long the task lives from its creation, and when it was created (epoch ms). */
  readonly ttlMs: number | null;
  readonly createdAt: number;
}

/**
 * Runs tasks on whichever instance takes them (the BullMQ queue of `nestjs-mcp/redis`).
 * A task whose instance stopped is reported lost, never left running.
 * @publicApi
 */
export interface McpTaskQueue {
  /** Adds the job unless one for the same task was already added. */
  enqueue(job: McpTaskJob): Promise<void>;
  /**
   * Takes jobs on this instance, each run by `run`; the job ends when `run` resolves (the
   * task is final in the store by then; a task waiting for answers keeps its job).
   */
  work(run: (job: McpTaskJob) => Promise<void>): void;
  /** Told once for each job whose instance stopped before it ended. */
  onLost(listener: (job: McpTaskJob, reason: string) => void): void;
  /** Stops taking jobs, waits for none, and closes its connections. */
  close(): Promise<void>;
}

/**
 * What several instances of an app share (docs/scale-out.md): the change bus, the task
 * store, the task queue and the event store of resumable 2025 streams. `nestjs-mcp/redis`
 * implements it on Redis and BullMQ; `McpModule.forRoot({ scaleOut })` takes it.
 * @publicApi
 */
export interface McpScaleOut {
  /** This instance's name among the others: in logs and in the 2025 session ids it opens. */
  readonly instanceId: string;
  /** Called once by each server that uses it, when the app starts. */
  connect(): Promise<void>;
  /** Called once by each server that used it, at app shutdown; the last one closes it. */
  close(): Promise<void>;
  changeBus(server: string): McpChangeBus;
  taskStore(server: string, options: { readonly maxTasks?: number }): McpTaskStore;
  taskQueue(server: string, queue: string): McpTaskQueue;
  /**
   * The events of one 2025 session's resumable streams, bounded per stream. One per
   * session: the SDK names every session's GET stream alike.
   */
  sessionEventStore(server: string, sessionId: string): EventStore;
}
