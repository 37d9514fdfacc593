import type { ExploredPrimitives } from '../discovery/mcp.explorer.js';
import { namedTool } from '../discovery/tool-name.resolver.js';
import { McpLocalization } from '../localization/mcp-localization.js';
import { publishedEntries } from '../localization/translation-tree.check.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpCatalog } from '../registry/mcp-catalog.js';

/**
 * The `i18n` option of one server, read and checked against what it publishes and what
 * the app's other servers publish (a base file serves them all), or `undefined` without it.
 * @throws McpConfigurationError for a translation that names nothing, with file and line
 */
export function serverLocalization(
  options: McpModuleOptions,
  explored: ExploredPrimitives,
  catalog: McpCatalog,
): McpLocalization | undefined {
  if (!options.i18n) return undefined;
  const published = publishedEntries({
    tools: catalog.tools.definitions(),
    prompts: catalog.prompts.definitions(),
    resources: catalog.resources.definitions(),
    templates: catalog.templates.definitions(),
  });
  const publishedInApp = publishedEntries({
    tools: explored.tools.map((tool) => namedTool(tool, options.naming).definition),
    prompts: explored.prompts.map((prompt) => prompt.definition),
    resources: explored.resources.flatMap((resource) =>
      resource.kind === 'static' ? [resource.definition] : [],
    ),
    templates: explored.resources.flatMap((resource) =>
      resource.kind === 'template' ? [resource.definition] : [],
    ),
  });
  return McpLocalization.create(options.i18n, {
    name: options.name,
    ...(options.group !== undefined && { group: options.group }),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    published,
    publishedInApp,
  });
}
