import type { CanActivate, INestApplicationContext, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { isObservable, lastValueFrom } from 'rxjs';
import { DetachedResponse } from '../context/detached-response.js';
import { userOf } from '../oauth/auth-info.factory.js';
import { OAuthChallengeError } from '../oauth/oauth-challenge.error.js';
import { OAuthResourceServer } from '../oauth/oauth-resource.server.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import { ExecutionContextHost } from '../utils/nest-internals.js';
import { resolveGuard } from './guard.resolver.js';

/**
 * The caller of a transport without HTTP (stdio, the CLI): an object shaped like the HTTP
 * request your guards read, for example `{ headers: { authorization: 'Bearer …' } }`, or a
 * function that returns one (called once, before serving).
 */
export type CallerRequestSource = object | (() => object | Promise<object>);

/** Guards as `http.guards` takes them: classes (made through Nest DI) or instances. */
export type CallerGuard = Type<CanActivate> | CanActivate;

/**
 * The environment variable read when no request is given: its value is the caller's
 * `Authorization` header, for example `Bearer admin-token`.
 */
export const MCP_AUTHORIZATION_ENV = 'NESTJS_MCP_AUTHORIZATION';

/**
 * The request that stands for the caller: the given one (header names lower-cased, as
 * Node's HTTP server gives them), else one carrying the `Authorization` header from
 * {@link MCP_AUTHORIZATION_ENV}, else one without headers.
 */
export async function resolveCallerRequest(
  source: CallerRequestSource | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, any>> {
  if (source === undefined) {
    const authorization = env[MCP_AUTHORIZATION_ENV];
    return { headers: authorization ? { authorization } : {} };
  }
  const request = (typeof source === 'function' ? await source() : source) as Record<string, any>;
  if (request === null || typeof request !== 'object') {
    throw new TypeError(
      'The caller request must be an object, such as { headers: { authorization: "Bearer <token>" } }.',
    );
  }
  const headers = request.headers ?? {};
  // Guards written for Node's HTTP server read lower-cased names (`headers.authorization`).
  request.headers = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return request;
}

/** The class and handler guards see (`getClass()`, `getHandler()`) while they check a caller. */
class McpCallerConnection {
  authenticate(): void {}
}

/**
 * Runs the guards that admit a caller over HTTP (by default the server's `http.guards`)
 * once on the caller's request, before anything is served. They see an HTTP execution
 * context, `[request, response]`, as on the endpoint, so a guard that authenticates the
 * caller can set `request.user` for the tools' own guards (`@McpScopes()`, roles) to read
 * on every call.
 */
export async function authenticateCaller(
  app: INestApplicationContext,
  server: McpProtocolRuntime,
  request: object,
  guards: readonly CallerGuard[] = defaultCallerGuards(server),
): Promise<void> {
  await verifyCallerToken(server, request as Record<string, any>);
  const moduleRef = app.get(ModuleRef, { strict: false });
  for (const guard of guards) {
    const instance = await resolveGuard(moduleRef, guard);
    const context = new ExecutionContextHost(
      [request, new DetachedResponse(), undefined],
      McpCallerConnection,
      McpCallerConnection.prototype.authenticate,
    );
    context.setType('http');
    let allowed: boolean;
    try {
      const answer = instance.canActivate(context);
      allowed = await (isObservable(answer) ? lastValueFrom(answer) : answer);
    } catch (error) {
      throw new CallerRefusedError(instance.constructor.name, describe(error));
    }
    if (!allowed)
      throw new CallerRefusedError(instance.constructor.name, 'the guard returned false');
  }
}

/**
 * With `auth`, a caller that brings a bearer token has it verified once, as over HTTP
 * (issuer, signature, audience: `auth.resource` or `auth.audience`, required scopes), and
 * its identity becomes `request.auth` and `request.user` for the guards and tools. A caller
 * without a token is left to the guards: stdio is a local process the user started.
 */
async function verifyCallerToken(server: McpProtocolRuntime, request: Record<string, any>) {
  const { auth } = server.options;
  const authorization = request.headers?.authorization;
  if (!auth || typeof authorization !== 'string' || !/^bearer\s/i.test(authorization)) return;
  try {
    const info = await new OAuthResourceServer(auth).authenticate(request);
    request.auth = info;
    request.user = userOf(info);
  } catch (error) {
    const reason =
      error instanceof OAuthChallengeError
        ? `${error.description} (${error.code ?? 'invalid_token'})`
        : describe(error);
    throw new CallerRefusedError('the auth option (OAuth access token)', reason);
  }
}

/** The guards of the server's HTTP endpoint: what admits a caller there admits it here. */
function defaultCallerGuards(server: McpProtocolRuntime): readonly CallerGuard[] {
  const http = server.options.http;
  return (http && http.guards) || [];
}

/** A guard refused the caller: nothing is served. The message names the guard and its reason. */
export class CallerRefusedError extends Error {
  constructor(
    readonly guard: string,
    readonly reason: string,
  ) {
    super(`The MCP caller was refused by ${guard}: ${reason}`);
    this.name = 'CallerRefusedError';
  }
}

function describe(error: unknown): string {
  const response = (error as { getResponse?: () => unknown }).getResponse?.();
  const message =
    (response as { message?: unknown } | undefined)?.message ?? (error as Error)?.message ?? error;
  const status = (error as { getStatus?: () => number }).getStatus?.();
  const text = Array.isArray(message) ? message.join('; ') : String(message);
  return status ? `${text} (${status})` : text;
}
