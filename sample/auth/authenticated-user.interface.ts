import type { Request } from 'express';

/** What a caller may do: a reader searches and reads, an admin also changes the catalog. */
export type Role = 'reader' | 'admin';

/** Set by `BearerTokenGuard` on the HTTP request, for REST routes and MCP tools alike. */
export interface AuthenticatedUser {
  readonly role: Role;
}

export type AuthenticatedRequest = Request & { user?: AuthenticatedUser };
