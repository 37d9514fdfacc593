import {
  CLIENT_CAPABILITIES_META_KEY,
  type AuthInfo,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpCall } from '../execution/mcp-call.js';
import type { McpTaskJob } from '../interfaces/mcp-scale-out.interface.js';
import type { TaskTiming } from './task-run.js';

/** The caller's `AuthInfo` as a job carries it: without the token. */
type JobAuthInfo = NonNullable<McpTaskJob['caller']['authInfo']>;

/** A value as JSON would carry it, or `undefined` when it cannot travel (a cycle, a function). */
function asJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return undefined;
  }
}

/** Below this length a credential is only matched whole: `"ok"` must not erase `"book"`. */
const MIN_CONTAINED_SECRET = 8;

/** Whether a string of the caller is, or contains, one of its credentials. */
const revealsAny = (text: string, secrets: readonly string[]) =>
  secrets.some(
    (secret) => text === secret || (secret.length >= MIN_CONTAINED_SECRET && text.includes(secret)),
  );

/** A JSON value less every string that is, or contains, one of `secrets` (keys and items go). */
function withoutSecrets(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return revealsAny(value, secrets) ? undefined : value;
  if (Array.isArray(value)) {
    return value.map((item) => withoutSecrets(item, secrets)).filter((item) => item !== undefined);
  }
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const clean = withoutSecrets(field, secrets);
    if (clean !== undefined) kept[key] = clean;
  }
  return kept;
}

/**
 * The credentials a request carried: the verified bearer token, what follows the scheme of
 * its `Authorization` header (a custom guard's token, Basic credentials), and the values of
 * its cookies long enough to be a session's (a short one, `lang=en`, is no secret).
 */
function credentialsOf(
  request: { headers?: Record<string, unknown> } | undefined,
  authInfo: AuthInfo | undefined,
): string[] {
  const secrets = authInfo?.token ? [authInfo.token] : [];
  const { authorization, cookie } = request?.headers ?? {};
  if (typeof authorization === 'string') {
    const credentials = authorization.replace(/^\S+\s+/, '').trim();
    if (credentials !== '') secrets.push(credentials);
  }
  if (typeof cookie === 'string') {
    for (const pair of cookie.split(';')) {
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value.length >= MIN_CONTAINED_SECRET) secrets.push(value);
    }
  }
  return secrets;
}

/**
 * The job of a call checked in the request (`tasks.queue`): the tool, its arguments, and
 * what the worker needs of the caller. Of the request it keeps the verified identity only
 * (`request.auth` less its `token`, `request.user`), never the credentials: a job stays in
 * Redis after it ends, and the guards already ran. A string of `auth` or `user` that
 * carries the token, the `Authorization` credentials or a session cookie is left out too.
 */
export function taskJobOf(
  call: McpCall,
  taskId: string,
  toolName: string,
  timing: TaskTiming,
): McpTaskJob {
  const request = call.httpRequest as
    { auth?: AuthInfo; user?: unknown; headers?: Record<string, unknown> } | undefined;
  const verified = call.serverContext.http?.authInfo ?? request?.auth;
  const secrets = credentialsOf(request, verified);
  const { token: _token, ...identified } = (asJson(verified) as AuthInfo | undefined) ?? {};
  const authInfo = verified && (withoutSecrets(identified, secrets) as JobAuthInfo);
  const user = withoutSecrets(asJson(request?.user), secrets);
  return {
    taskId,
    toolName,
    arguments: call.arguments,
    era: call.era,
    locale: call.locale,
    ...(call.requestId !== undefined && { requestId: call.requestId }),
    ...(call.clientCapabilities && { clientCapabilities: call.clientCapabilities }),
    caller: {
      identity: call.identity,
      ...(authInfo && { authInfo }),
      ...(user !== undefined && { user }),
    },
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
 * caller's `AuthInfo` from the job (without its token), and the signal of the task.
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
