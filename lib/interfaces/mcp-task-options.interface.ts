import type { McpTaskStore } from './mcp-task-store.interface.js';

/**
 * Whether a tool runs as an MCP task (docs/tasks.md): `'optional'` when the client asks
 * for one (2026-07-28: the request declares the tasks extension; 2025-11-25: it sends
 * `params.task`), `'required'` always (a client that cannot take a task is refused).
 */
export type McpToolTaskMode = 'optional' | 'required';

/** The `task` option of `@McpTool()` in full. */
export interface McpToolTaskOptions {
  mode: McpToolTaskMode;
  /**
   * How long the task (and its result) stays readable after it was created, in
   * milliseconds; when it runs out a running task is aborted (`ctx.signal`).
   * @default the `tasks.ttlMs` of the module
   */
  ttlMs?: number;
  /**
   * How often the client is told to poll, in milliseconds.
   * @default the `tasks.pollIntervalMs` of the module
   */
  pollIntervalMs?: number;
}

/** Module-wide settings of MCP tasks (`McpModule.forRoot({ tasks })`). */
export interface McpTasksOptions {
  /**
   * Where tasks are kept. The default keeps them in this process
   * (`InMemoryTaskStore`); a shared store lets every instance read every task.
   * @default new InMemoryTaskStore({ maxTasks })
   */
  store?: McpTaskStore;
  /**
   * How long a task stays readable after it was created, in milliseconds.
   * @default 3_600_000 (one hour)
   */
  ttlMs?: number;
  /**
   * The poll interval suggested to clients, in milliseconds.
   * @default 1_000
   */
  pollIntervalMs?: number;
  /**
   * The most tasks the default store keeps; when full, the oldest finished task is
   * evicted first, and a new task is refused only when every task is still running.
   * @default 1_000
   */
  maxTasks?: number;
  /**
   * Runs the tasks on a queue shared by every instance (docs/scale-out.md), by its name,
   * such as `'mcp-tasks'`: the request checks the call (arguments, guards) and whichever
   * instance takes the job runs it (interceptors, pipes, the method). Needs `scaleOut`.
   * @default none: a task runs in the process that created it
   */
  queue?: string;
}
