import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import type { McpPrimitiveKind } from '../interfaces/mcp-call-context.interface.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';

/**
 * The `@McpScopes()` requirement of a method, as `McpScopesGuard` reads it: the method's
 * own, else its class's.
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

/**
 * What `@McpScopes()` requires of each entry one server publishes, by kind and key (name,
 * URI or URI template): for the step-up challenge of an operation (OAuth 403
 * `insufficient_scope`) and the default `scopes_supported` of the server's metadata.
 */
export class ScopeRequirements {
  private readonly byEntry = new Map<string, McpScopeRequirement>();

  record(kind: McpPrimitiveKind, key: string, method: DiscoveredMethod): void {
    const requirement = scopeRequirementOf(method);
    if (requirement) this.byEntry.set(`${kind}\0${key}`, requirement);
    else this.byEntry.delete(`${kind}\0${key}`);
  }

  forget(kind: McpPrimitiveKind, key: string): void {
    this.byEntry.delete(`${kind}\0${key}`);
  }

  of(kind: McpPrimitiveKind, key: string): McpScopeRequirement | undefined {
    return this.byEntry.get(`${kind}\0${key}`);
  }

  /** Every scope named, each once, sorted. */
  named(): string[] {
    const scopes = new Set<string>();
    for (const requirement of this.byEntry.values()) {
      for (const scope of 'any' in requirement ? requirement.any : requirement.all) {
        scopes.add(scope);
      }
    }
    return [...scopes].toSorted();
  }
}
