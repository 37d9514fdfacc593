import {
  CLIENT_CAPABILITIES_META_KEY,
  type AuthInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpCall } from '../execution/mcp-call.js';
import type { McpTaskJob } from '../interfaces/mcp-scale-out.interface.js';
import type { TaskTiming } from './task-run.js';

/** A value as JSON would carry it, or `undefined` when it cannot travel (a cycle, a function). */
function asJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The job of a call checked in the request (`tasks.queue`): the tool, its arguments, and
 * what the worker needs of the caller. Of the request it keeps the verified identity only
 * (`request.auth`, `request.user`), never the credentials: the guards already ran.
 */
export function taskJobOf(
  call: McpCall,
  taskId: string,
  toolName: string,
  timing: TaskTiming,
): McpTaskJob {
  const request = call.httpRequest as { auth?: AuthInfo; user?: unknown } | undefined;
  const authInfo = asJson(call.serverContext.http?.authInfo ?? request?.auth) as AuthInfo;
  const user = asJson(request?.user);
  return {
    taskId,
    toolName,
    arguments: call.arguments,
    era: call.era,
    locale: call.locale,
    ...(call.requestId !== undefined && { requestId: call.requestId }),
    ...(call.clientCapabilities && { clientCapabilities: call.clientCapabilities }),
    caller: { ...(authInfo && { authInfo }), ...(user !== undefined && { user }) },
    ttlMs: timing.ttlMs,
    createdAt: Date.now(),
  };
}

/**
 * What the worker's call sees as its request: the caller's identity where guards,
 * `@McpScopes()` and `@Req()` look for it (`auth`, `user`), and no headers.
 */
export function taskJobRequest(job: McpTaskJob): Record<string, unknown> {
  return {
    method: 'POST',
    url: '',
    headers: {},
    ...(job.caller.authInfo && { auth: job.caller.authInfo }),
    ...(job.caller.user !== undefined && { user: job.caller.user }),
  };
}

const nothingToSend = async (): Promise<void> => undefined;

/**
 * The SDK context of a call a worker runs: no open request behind it, so nothing to notify
 * or log (a task's progress is its status message), the client's capabilities and the
 * caller's `AuthInfo` from the job, and the signal of the task.
 */
export function taskJobServerContext(job: McpTaskJob, signal: AbortSignal): ServerContext {
  const capabilities = job.clientCapabilities;
  return {
    mcpReq: {
      id: job.requestId ?? job.taskId,
      method: 'tools/call',
      signal,
      _meta: {},
      ...(job.era === 'modern' &&
        capabilities && { envelope: { [CLIENT_CAPABILITIES_META_KEY]: capabilities } }),
      requestState: () => undefined,
      inputResponses: undefined,
      notify: nothingToSend,
      log: nothingToSend,
    },
    ...(job.caller.authInfo && { http: { authInfo: job.caller.authInfo } }),
  } as unknown as ServerContext;
}
