import type { CallerScopesReader } from '../interfaces/mcp-module-options.interface.js';

/**
 * The default reader: `request.user.scopes`, `request.user.scope` (the OAuth/JWT claim),
 * then `request.auth.scopes` (what the MCP SDK's bearer middleware sets).
 */
export const defaultCallerScopes: CallerScopesReader = (request) =>
  request?.user?.scopes ?? request?.user?.scope ?? request?.auth?.scopes;

/** A reader's answer as a list: arrays as they are, strings split on spaces, else none. */
export function toScopeList(
  value: readonly string[] | string | undefined | null,
): readonly string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return Array.isArray(value) ? value.filter((scope) => typeof scope === 'string') : [];
}
