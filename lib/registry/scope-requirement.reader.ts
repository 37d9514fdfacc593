import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';

/**
 * The `@McpScopes()` requirement of a method, as `McpScopesGuard` reads it: the method's
 * own, else its class's. Read once, when the entry is bound, for what must know it before
 * any guard runs: the OAuth step-up challenge, `scopes_supported`, the manifest.
 */
export function scopeRequirementOf({
  wrapper,
  methodName,
}: DiscoveredMethod): McpScopeRequirement | undefined {
  const instance = wrapper.instance as Record<string, unknown> | undefined;
  const type = (instance?.constructor ?? wrapper.metatype) as
    (Function & { prototype?: Record<string, unknown> }) | undefined;
  const handler = (instance?.[methodName] ?? type?.prototype?.[methodName]) as Function | undefined;
  return (
    (handler && Reflect.getMetadata(MCP_SCOPES_METADATA, handler)) ??
    (type && Reflect.getMetadata(MCP_SCOPES_METADATA, type))
  );
}
