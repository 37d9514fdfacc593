import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { loadSampleConfig } from '../sample.config.js';
import {
  ROLE_SCOPES,
  type AuthenticatedRequest,
  type Role,
} from './authenticated-user.interface.js';

/** The challenge of a 401 (RFC 6750): which scheme to use, and for what. */
const CHALLENGE = 'Bearer realm="catalog"';

/**
 * Accepts `Authorization: Bearer <token>` with one of the two configured tokens and records
 * the caller's role and scopes on the request. On the MCP endpoint it runs before any MCP processing
 * (it is in `http.guards`), so a caller without a valid token gets a plain HTTP 401.
 *
 * A real app would verify a JWT or ask its identity provider here; the rest of the sample
 * only relies on `request.user` (`role` for the REST routes, `scopes` for the tools).
 */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  private readonly roles: ReadonlyMap<string, Role>;

  constructor(private readonly adapterHost: HttpAdapterHost) {
    const { readerToken, adminToken } = loadSampleConfig();
    this.roles = new Map<string, Role>([
      [readerToken, 'reader'],
      [adminToken, 'admin'],
    ]);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (request.auth) {
      // The OAuth mode: the MCP endpoint's `auth` option has verified the caller's access
      // token already (`request.auth`). Its scopes decide the role, so that the REST routes
      // published as tools serve the same callers as the other tools.
      const role: Role = request.auth.scopes.includes('catalog.write') ? 'admin' : 'reader';
      request.user = { ...request.user, role, scopes: request.auth.scopes };
      return true;
    }
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    const role = scheme?.toLowerCase() === 'bearer' && token ? this.roles.get(token) : undefined;
    if (!role) {
      // Through the HTTP adapter, so it works on Express and Fastify alike. Over stdio
      // (`main-stdio.ts`) there is no HTTP adapter, and no response to set it on.
      this.adapterHost.httpAdapter?.setHeader(http.getResponse(), 'WWW-Authenticate', CHALLENGE);
      throw new UnauthorizedException(
        'Send "Authorization: Bearer <token>" with a reader or an admin token',
      );
    }
    request.user = { role, scopes: ROLE_SCOPES[role] };
    return true;
  }
}
