import type { CallToolResult, InputRequests } from '@modelcontextprotocol/server';

/** Where a task stands; the last three are final. */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The JSON-RPC error a failed task ended with. */
export interface McpTaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * One task as a store keeps it. Only JSON values: a store may serialise it (Redis).
 * @publicApi
 */
export interface McpTask {
  /** A random UUID. */
  readonly taskId: string;
  /** Who may read, answer and cancel it (`tasks.owner`), never a session. */
  readonly owner: string;
  /** The tool it runs. */
  readonly toolName: string;
  readonly status: McpTaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long it stays readable after `createdAt`, in milliseconds; `null` for ever. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** The questions still unanswered (`input_required`), by key. */
  readonly inputRequests?: InputRequests;
  /** The answers given so far to the questions of the current round, by key. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** What the method passed along with its questions (`inputRequired({ requestState })`). */
  readonly requestState?: string;
  /** `completed`: the tool result (an `isError` result included). */
  readonly result?: CallToolResult;
  /** `failed`: the JSON-RPC error. */
  readonly error?: McpTaskError;
}

/** What `McpTaskStore#create` is given; the store adds the id, status and times. */
export interface NewMcpTask {
  /** A random UUID, made by the runner so that the call knows it before the task is stored. */
  readonly taskId: string;
  readonly owner: string;
  readonly toolName: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
}

/**
 * What a store tells its subscribers. `input-complete` and `cancel-requested` wake the
 * runner that owns the task (on any instance, with a shared store); `updated` follows
 * every change, for status notifications and waiters (`tasks/result`).
 */
export type McpTaskEvent =
  | { readonly type: 'updated'; readonly task: McpTask }
  | { readonly type: 'input-complete'; readonly task: McpTask }
  | { readonly type: 'cancel-requested'; readonly taskId: string }
  | { readonly type: 'expired'; readonly taskId: string };

/** One page of `McpTaskStore#list`. */
export interface McpTaskPage {
  readonly tasks: readonly McpTask[];
  readonly nextCursor?: string;
}

/**
 * Keeps tasks: the in-memory default, or a shared store (Redis) so that every instance
 * reads every task. Every transition of a final task (completed, failed, cancelled)
 * leaves it unchanged and resolves to it as it is; an unknown or expired id resolves to
 * `undefined`. Each method changes the store before it resolves, so an acknowledgement
 * sent after it is true.
 * @publicApi
 */
export interface McpTaskStore {
  /** Stores a new `working` task and returns it. */
  create(task: NewMcpTask): Promise<McpTask>;
  get(taskId: string): Promise<McpTask | undefined>;
  /** Back to `working` (after its questions were answered), with a status message or none. */
  setStatus(
    taskId: string,
    status: 'working',
    statusMessage?: string,
  ): Promise<McpTask | undefined>;
  /** Keeps the status, changes the message (`ctx.task.setStatus()`, progress). */
  setStatusMessage(taskId: string, statusMessage: string): Promise<McpTask | undefined>;
  /** `input_required` with these questions; the answers of the previous round are cleared. */
  requireInput(
    taskId: string,
    inputRequests: InputRequests,
    requestState?: string,
  ): Promise<McpTask | undefined>;
  /**
   * Records the answers to pending questions (keys not pending are ignored). When none is
   * left pending the task is `working` again and subscribers get `input-complete`.
   */
  resolveInput(
    taskId: string,
    inputResponses: Readonly<Record<string, unknown>>,
  ): Promise<McpTask | undefined>;
  complete(taskId: string, result: CallToolResult): Promise<McpTask | undefined>;
  fail(taskId: string, error: McpTaskError): Promise<McpTask | undefined>;
  /** Marks the task `cancelled` at once and tells subscribers (`cancel-requested`). */
  requestCancel(taskId: string): Promise<McpTask | undefined>;
  /** The owner's tasks, newest first, a page at a time (opaque cursors). */
  list(owner: string, page?: { cursor?: string; limit?: number }): Promise<McpTaskPage>;
  /** Calls `listener` with every event until the returned function is called. */
  subscribe(listener: (event: McpTaskEvent) => void): () => void;
  /** Removes the tasks whose TTL ran out (subscribers get `expired`); resolves to how many. */
  sweep(now?: number): Promise<number>;
  /** Stops timers and connections (at app shutdown). */
  close?(): Promise<void>;
}
