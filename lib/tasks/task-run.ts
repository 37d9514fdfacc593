// The shapes of one task run, and what its rounds come to (the task runner).
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import type { Logger } from '@nestjs/common';
import type { McpTask, McpTaskError } from '../interfaces/mcp-task-store.interface.js';

/** How long a task lives and how often its client should poll. */
export interface TaskTiming {
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
}

/** What starting a task call came to: an answer in the request, or a task. */
export type TaskStart =
  | { readonly kind: 'answered'; readonly result: CallToolResult | InputRequiredResult }
  | { readonly kind: 'task'; readonly task: McpTask };

/** What one round of a task's method came to. */
export type Settled =
  | { readonly ok: true; readonly value: CallToolResult | InputRequiredResult }
  | { readonly ok: false; readonly error: unknown };

export const settle = (promise: Promise<CallToolResult | InputRequiredResult>): Promise<Settled> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/** A call that ended in the request: its answer, or the error it threw. */
export const answered = (settled: Settled): TaskStart => {
  if (!settled.ok) throw settled.error;
  return { kind: 'answered', result: settled.value };
};

/**
 * The JSON-RPC error a failed task records: a `ProtocolError` the method threw as it is;
 * anything else (the invoker maps ordinary errors to `isError` results, so this is a bug
 * of the pipeline) as an internal error whose detail stays in the log.
 */
export function taskErrorOf(error: unknown, logger: Logger): McpTaskError {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    };
  }
  logger.error(
    `A task failed unexpectedly: ${error instanceof Error ? error.stack : String(error)}`,
  );
  return {
    code: ProtocolErrorCode.InternalError,
    message: 'Internal error: the task failed unexpectedly; the details were logged on the server.',
  };
}
