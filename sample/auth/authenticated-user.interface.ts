import type { AuthInfo } from 'nestjs-mcp';
import type { IncomingHttpHeaders } from 'node:http';

/** What a caller may do: a reader searches and reads, an admin also changes the catalog. */
export type Role = 'reader' | 'admin';

/** What each role may do, as OAuth-style scopes (what `@McpScopes()` checks). */
export const ROLE_SCOPES: Record<Role, readonly string[]> = {
  reader: ['catalog.read'],
  admin: ['catalog.read', 'catalog.write'],
};

/** Set by `BearerTokenGuard` on the HTTP request, for REST routes and MCP tools alike. */
export interface AuthenticatedUser {
  readonly role: Role;
  /** Read by `McpModule`'s default `callerScopes` for `@McpScopes()`. */
  readonly scopes: readonly string[];
}

/**
 * What `request.user` is in the OAuth mode: the library puts the verified access token's
 * claims there, with the client it was issued to and its scopes.
 */
export interface TokenUser {
  readonly clientId: string;
  /** Read by `McpModule`'s default `callerScopes` for `@McpScopes()`. */
  readonly scopes: readonly string[];
  readonly sub?: string;
}

/**
 * What the sample reads of an HTTP request: an Express `Request` or a Fastify
 * `FastifyRequest` (both carry Node's headers), or the caller request of `main-stdio.ts`.
 */
export interface AuthenticatedRequest {
  readonly headers: IncomingHttpHeaders;
  user?: AuthenticatedUser;
  /** In the OAuth mode, the access token the MCP endpoint verified (never set over REST). */
  readonly auth?: AuthInfo;
}
