import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import type { ExploredPrimitives } from '../discovery/mcp.explorer.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { McpCatalog } from './mcp-catalog.js';

/** The arguments a prompt or template can be completed for: its DTO's, its URI's variables. */
function argumentNames(entry: {
  readonly argumentsSchema: JsonSchema;
  readonly template?: { readonly variableNames: readonly string[] };
}): Set<string> {
  return new Set([
    ...Object.keys(entry.argumentsSchema.properties ?? {}),
    ...(entry.template?.variableNames ?? []),
  ]);
}

/** Whether some entry of the app, on whichever server, is the completer's target, with its argument. */
function hasExploredTarget(explored: ExploredPrimitives, { target }: DiscoveredCompleter): boolean {
  const entries =
    'prompt' in target
      ? explored.prompts.filter((prompt) => prompt.definition.name === target.prompt)
      : explored.resources.filter(
          (resource) =>
            resource.kind === 'template' && resource.definition.uriTemplate === target.resource,
        );
  return entries.some((entry) => argumentNames(entry).has(target.argument));
}

/**
 * Whether a server attaches a completer (`@McpCompletion()`, which belongs to no server: it
 * follows its target). It does when its own prompt or template of that name has the
 * completer's argument. It does not when another entry of the app has them instead (an
 * ungrouped completer meets a grouped server's prompt of the same name, with other
 * arguments): that entry's servers take it. When no entry of the app has them, it does,
 * so that `attachCompleter` stops the bootstrap naming what exists.
 */
export function attachesCompleter(
  catalog: McpCatalog,
  explored: ExploredPrimitives,
  completer: DiscoveredCompleter,
): boolean {
  const own = catalog.completable(completer.target);
  if (own && argumentNames(own).has(completer.target.argument)) return true;
  return !hasExploredTarget(explored, completer);
}
