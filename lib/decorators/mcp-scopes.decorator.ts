import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { McpScopesGuard } from '../authorization/mcp-scopes.guard.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';

/**
 * Requires OAuth-style scopes of the caller, on a tool or on every tool of a class. A
 * caller without them does not see the tool in `tools/list`, and a call is refused with a
 * message naming the missing scopes. The caller's scopes come from the `callerScopes`
 * option of `McpModule` (by default `request.user.scopes`).
 *
 * It is a guard (`McpScopesGuard`), so it combines with the app's own role guards.
 *
 * @example
 * ```ts
 * @McpScopes('catalog.write')                      // all of them
 * @McpScopes({ any: ['catalog.admin', 'ops'] })    // at least one
 * ```
 * @publicApi
 */
export function McpScopes(
  ...scopes: string[] | [McpScopeRequirement]
): ClassDecorator & MethodDecorator {
  const requirement: McpScopeRequirement =
    typeof scopes[0] === 'object' ? scopes[0] : { all: scopes as string[] };
  return applyDecorators(SetMetadata(MCP_SCOPES_METADATA, requirement), UseGuards(McpScopesGuard));
}
