import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Logger,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { userOf } from './auth-info.factory.js';
import {
  OAuthChallengeError,
  UnservedHostError,
  VerifierUnavailableError,
} from './oauth-challenge.error.js';
import { oauthMessages } from './oauth.messages.js';
import type { OAuthResourceServer } from './oauth-resource.server.js';

interface HeaderTarget {
  setHeader?(name: string, value: string): unknown;
  header?(name: string, value: string): unknown;
  raw?: unknown;
}

/** Express responses and Fastify replies both keep a header set before the answer. */
function setHeader(response: HeaderTarget, name: string, value: string): void {
  if ('raw' in response && typeof response.header === 'function') response.header(name, value);
  else response.setHeader?.(name, value);
}

/**
 * Makes a 401 that something after this guard answers (a later guard of `http.guards`, such
 * as Passport's `AuthGuard('jwt')`, refusing a token this one accepted) carry the challenge
 * too, so that the client still finds the metadata. Node writes every answer's head through
 * `writeHead` (Express, and Fastify's `reply.raw`), so this is where both platforms meet.
 */
function challengeLaterUnauthorized(response: ServerResponse, challenge: () => string): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const given = rest.find((arg): arg is Record<string, unknown> => typeof arg === 'object');
    const named =
      this.hasHeader('www-authenticate') ||
      Object.keys(given ?? {}).some((name) => name.toLowerCase() === 'www-authenticate');
    if (status === 401 && !named && !this.headersSent) {
      this.setHeader('WWW-Authenticate', challenge());
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse['writeHead'];
}

/**
 * The first guard of an endpoint with `auth`: it verifies the bearer token before any
 * other guard of `http.guards` runs, so they (and `@McpScopes()`, the tools, `REQUEST`)
 * read the verified identity: `request.auth` (the MCP SDK's `AuthInfo`, which reaches
 * tools as `ctx.http.authInfo`) and `request.user` (the token's claims and `scopes`).
 *
 * A refusal is a Nest `HttpException` (401, 403, or 503 with `Retry-After` when the
 * authorization server cannot be asked), so the app's exception filters see it as any
 * other; its `WWW-Authenticate` challenge is set on the response first. A request for a
 * host the resource cannot be derived from gets 403 without a challenge (it has no
 * metadata to name).
 */
export class McpOAuthGuard implements CanActivate {
  private readonly logger = new Logger(McpOAuthGuard.name);

  constructor(private readonly resourceServer: OAuthResourceServer) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Record<string, unknown>>();
    try {
      const auth = await this.resourceServer.authenticate(request);
      request.auth = auth;
      request.user = userOf(auth);
      const response = http.getResponse<HeaderTarget & { raw?: ServerResponse }>();
      const raw = (response.raw ?? response) as ServerResponse;
      if (typeof raw.writeHead === 'function') {
        challengeLaterUnauthorized(raw, () =>
          this.resourceServer.challengeOf(
            OAuthChallengeError.invalidToken(oauthMessages.refusedByApp()),
            request,
          ),
        );
      }
      return true;
    } catch (error) {
      if (error instanceof OAuthChallengeError) {
        const challenge = this.resourceServer.challengeOf(error, request);
        setHeader(http.getResponse<HeaderTarget>(), 'WWW-Authenticate', challenge);
        const body = { error: error.code ?? 'invalid_token', error_description: error.message };
        throw error.status === 403
          ? new ForbiddenException(body, { description: error.message })
          : new UnauthorizedException(body, { description: error.message });
      }
      if (error instanceof VerifierUnavailableError) {
        this.warnOutage(error);
        setHeader(http.getResponse<HeaderTarget>(), 'Retry-After', String(error.retryAfterSeconds));
        throw new ServiceUnavailableException({
          error: 'temporarily_unavailable',
          error_description: oauthMessages.verifierUnavailable(),
        });
      }
      if (error instanceof UnservedHostError) {
        throw new ForbiddenException(
          { error: 'invalid_request', error_description: error.description },
          { description: error.description },
        );
      }
      throw error;
    }
  }

  /** One warning a minute at most while the authorization server cannot be asked. */
  private warnOutage(error: VerifierUnavailableError): void {
    const heldBack = this.resourceServer.outages.record();
    if (heldBack === undefined) return;
    const warning =
      error.unavailability.warning ??
      oauthMessages.authorizationServerUnreachable(
        this.resourceServer.options.authorizationServers.join(', '),
        error.detail,
      );
    this.logger.warn(heldBack > 0 ? warning + oauthMessages.outagesHeldBack(heldBack) : warning);
  }
}
