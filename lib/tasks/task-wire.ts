import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { clientCapabilitiesOf, declaresExtension } from '../context/client-capabilities.js';
import { extensionRequired } from '../errors/extension-required.error.js';
import type { McpTask, McpTaskStatus } from '../interfaces/mcp-task-store.interface.js';
import { TASKS_EXTENSION } from '../mcp.constants.js';

/**
 * The rules of MCP Tasks that this library must restate, in one place: the SDK implements
 * no server side of tasks. Two revisions:
 * - 2026-07-28, the extension `io.modelcontextprotocol/tasks`
 *   (modelcontextprotocol/ext-tasks, specification/2026-07-28/tasks.md);
 * - 2025-11-25, the experimental core feature (basic/utilities/tasks.mdx).
 * The end-to-end tests check every shape built here against ext-tasks' own schemas.
 */

/** Whether a 2026-07-28 request declared the tasks extension in its `_meta` (tasks.md "Capability"). */
export const declaresTasks = (serverContext: ServerContext): boolean =>
  declaresExtension(clientCapabilitiesOf(serverContext, 'modern'), TASKS_EXTENSION);

/** `-32021`: the call can only be served as a task, or a `tasks/*` method was used without the extension. */
export const tasksExtensionRequired = (what: string) =>
  extensionRequired(what, TASKS_EXTENSION, 'modern');

/** `-32602` for an id that is unknown, expired, or another caller's (tasks.md "Errors"). */
export const unknownTask = (taskId: unknown) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown task ${JSON.stringify(taskId)}: it does not exist, has expired (its ttlMs ran ` +
      `out) or belongs to another caller. Start a new task with tools/call.`,
  );

/** The fields every task object carries on 2026-07-28 (`TaskBaseShape`). */
function modernBase(task: McpTask) {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined && { pollIntervalMs: task.pollIntervalMs }),
  };
}

/** The flat `CreateTaskResult` a 2026-07-28 `tools/call` answers with. */
export const modernCreateTaskResult = (task: McpTask) => ({
  resultType: 'task' as const,
  ...modernBase(task),
});

/**
 * `tasks/get` on 2026-07-28: the detailed task, its outcome inlined (`result` when
 * completed, `error` when failed, the pending `inputRequests` when input is required).
 */
export function modernDetailedTask(task: McpTask) {
  return {
    resultType: 'complete' as const,
    ...modernBase(task),
    ...(task.status === 'input_required' && { inputRequests: task.inputRequests ?? {} }),
    // The inlined result is a complete tool result of this revision (`resultType` included).
    ...(task.status === 'completed' &&
      task.result && { result: { resultType: 'complete', ...task.result } }),
    ...(task.status === 'failed' && task.error && { error: task.error }),
  };
}

/** `tasks/update` and `tasks/cancel` on 2026-07-28 acknowledge with nothing else. */
export const modernAcknowledgement = () => ({ resultType: 'complete' as const });

/**
 * The status a 2025-11-25 client sees: that revision counts a tool result with
 * `isError: true` as a failed task.
 */
const legacyStatus = (task: McpTask): McpTaskStatus =>
  task.status === 'completed' && task.result?.isError === true ? 'failed' : task.status;

/** A task object on 2025-11-25 (`Task`: `ttl` and `pollInterval`, not `ttlMs`). */
export function legacyTask(task: McpTask) {
  return {
    taskId: task.taskId,
    status: legacyStatus(task),
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    ...(task.pollIntervalMs !== undefined && { pollInterval: task.pollIntervalMs }),
  };
}

/** What a 2025-11-25 `tools/call` with `params.task` answers: `CreateTaskResult`. */
export const legacyCreateTaskResult = (task: McpTask) => ({ task: legacyTask(task) });

/**
 * `tasks/result` on 2025-11-25: exactly what the call would have answered, the result or
 * the JSON-RPC error, tied to its task by `_meta["io.modelcontextprotocol/related-task"]`.
 */
export function legacyTaskPayload(task: McpTask): CallToolResult {
  const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
  if (task.status === 'failed' && task.error) {
    throw new ProtocolError(task.error.code, task.error.message, task.error.data);
  }
  if (task.status === 'cancelled') {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Task ${task.taskId} was cancelled before it finished: it has no result.`,
    );
  }
  const result = task.result ?? { content: [] };
  return { ...result, _meta: { ...result._meta, ...related } };
}

/** Whether a status is final: nothing changes a task after it. */
export const isFinal = (status: McpTaskStatus): boolean =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

/** The `params` the task methods take. */
export interface TaskParams {
  readonly taskId: string;
  readonly inputResponses?: Record<string, unknown>;
  readonly cursor?: string;
}

const issue = (message: string) => ({ issues: [{ message }] });

/**
 * The `params` of the task methods, as the Standard Schema the SDK's custom-method
 * registration takes: a string `taskId` (`tasks/list`: an optional string `cursor`), and
 * for `tasks/update` an object of answers. Answers are not checked one by one: keys the
 * task does not wait for are ignored, not refused (tasks.md "tasks/update").
 */
export const taskParams = (kind: 'id' | 'update' | 'list') => ({
  params: {
    '~standard': {
      version: 1 as const,
      vendor: 'nestjs-mcp',
      types: undefined as unknown as { input: unknown; output: TaskParams },
      validate(value: unknown) {
        const params = (value ?? {}) as Record<string, unknown>;
        if (kind === 'list') {
          if (params.cursor !== undefined && typeof params.cursor !== 'string') {
            return issue('cursor must be the nextCursor of the previous page');
          }
          return { value: params as unknown as TaskParams };
        }
        if (typeof params.taskId !== 'string') {
          return issue('taskId must be the string id that tools/call returned');
        }
        const responses = params.inputResponses;
        // The SDK lifts `inputResponses` out of the params of 2026-07-28 requests (into
        // `ctx.mcpReq.inputResponses`), so it may be absent here; present, it is an object.
        if (
          kind === 'update' &&
          responses !== undefined &&
          (typeof responses !== 'object' || responses === null || Array.isArray(responses))
        ) {
          return issue('inputResponses must be an object of answers by input key');
        }
        return { value: params as unknown as TaskParams };
      },
    },
  },
});
