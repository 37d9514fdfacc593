import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpUiToolMeta } from '@modelcontextprotocol/ext-apps';
import { appViewUri, type DiscoveredAppView } from '../discovery/app-view.discovery.js';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type {
  McpAppViewOptions,
  McpToolAppOptions,
} from '../interfaces/mcp-app-options.interface.js';
import type { McpExtensionSettings } from '../interfaces/mcp-extension-options.interface.js';
import {
  duplicateViewMessage,
  unknownViewMessage,
  unusedViewMessage,
} from '../messages/apps.messages.js';
import { isPlainObject } from '../utils/value-checks.util.js';

/** A view one server may publish: from the `apps.views` option, or an `@McpAppView()` method. */
export type ServerAppView =
  | { readonly name: string; readonly where: string; readonly file: McpAppViewOptions }
  | { readonly name: string; readonly where: string; readonly method: DiscoveredAppView };

/**
 * The views of one server by name: those of its `apps.views` option and the `@McpAppView()`
 * methods of its group. A name declared twice fails: a view has one source of HTML.
 */
export function serverAppViews(
  option: Readonly<Record<string, McpAppViewOptions>> | undefined,
  methods: readonly DiscoveredAppView[],
): ReadonlyMap<string, ServerAppView> {
  const views = new Map<string, ServerAppView>();
  const declared: ServerAppView[] = [
    ...Object.entries(option ?? {}).map(([name, file]) => ({
      name,
      where: `the "apps.views" option`,
      file,
    })),
    ...methods.map((method) => ({ name: method.name, where: method.where, method })),
  ];
  for (const view of declared) {
    const earlier = views.get(view.name);
    if (earlier) {
      throw new McpConfigurationError(duplicateViewMessage(view.name, [earlier.where, view.where]));
    }
    views.set(view.name, view);
  }
  return views;
}

/**
 * A tool's `_meta` with what MCP Apps reads of it, merged into what the tool declares:
 * `ui.resourceUri` and the flat `ui/resourceUri` older hosts read (VS Code), and
 * `ui.visibility` when given. The library's values win over the same keys of `_meta`.
 */
export function appToolMeta(
  declared: Readonly<Record<string, unknown>> | undefined,
  app: McpToolAppOptions,
  uri: string | undefined,
): Record<string, unknown> {
  const ui: McpUiToolMeta = {
    ...(isPlainObject(declared?.ui) ? declared.ui : {}),
    ...(uri !== undefined && { resourceUri: uri }),
    ...(app.visibility !== undefined && { visibility: [...app.visibility] }),
  };
  return { ...declared, ui, ...(uri !== undefined && { [RESOURCE_URI_META_KEY]: uri }) };
}

/**
 * The tool as a server publishes it with MCP Apps: its `_meta` (of every form of its
 * definition) names the URI of its view on this server.
 * @throws McpConfigurationError when the view is not one of this server's
 */
export function withAppMeta(
  tool: DiscoveredTool,
  server: string,
  views: ReadonlyMap<string, ServerAppView>,
): DiscoveredTool {
  const { app } = tool;
  if (!app) return tool;
  const { view } = app;
  if (view !== undefined && !views.has(view)) {
    const { name } = tool.definition;
    throw new McpConfigurationError(
      unknownViewMessage(name, tool.where, view, server, [...views.keys()]),
    );
  }
  const uri = view === undefined ? undefined : appViewUri(server, view);
  const withMeta = <D extends { _meta?: Record<string, unknown> }>(definition: D): D => ({
    ...definition,
    _meta: appToolMeta(definition._meta, app, uri),
  });
  const variant = tool.withNullableOptionals;
  return {
    ...tool,
    definition: withMeta(tool.definition),
    ...(variant && {
      withNullableOptionals: () => {
        const nullable = variant();
        return nullable && { ...nullable, definition: withMeta(nullable.definition) };
      },
    }),
  };
}

/**
 * Fails on a view no tool shows: one of the server's `apps.views` option that none of its
 * tools names, or an `@McpAppView()` that no tool of its group names. An `@McpAppView()`
 * that only the tools of other versions of its group name is left off this server.
 * @param tools the tools of this server
 * @param appTools every tool of the app (the scan all servers share)
 * @returns the views this server publishes
 */
export function usedAppViews(
  server: string,
  views: ReadonlyMap<string, ServerAppView>,
  tools: readonly DiscoveredTool[],
  appTools: readonly DiscoveredTool[],
): ServerAppView[] {
  const named = new Set(tools.map((tool) => tool.app?.view));
  const used: ServerAppView[] = [];
  for (const view of views.values()) {
    if (named.has(view.name)) {
      used.push(view);
      continue;
    }
    const group = 'method' in view ? view.method.membership?.group : undefined;
    const namedInGroup =
      'method' in view &&
      appTools.some((tool) => tool.app?.view === view.name && tool.membership?.group === group);
    if (!namedInGroup) {
      throw new McpConfigurationError(unusedViewMessage(view.name, view.where, server));
    }
  }
  return used;
}

/**
 * The extensions a server advertises, with MCP Apps (`io.modelcontextprotocol/ui`) and the
 * MIME type of its views when it publishes any: a host then knows it may render them.
 */
export function withAppsExtension(
  extensions: ReadonlyMap<string, McpExtensionSettings>,
  hasViews: boolean,
): ReadonlyMap<string, McpExtensionSettings> {
  if (!hasViews) return extensions;
  return new Map([...extensions, [EXTENSION_ID, { mimeTypes: [RESOURCE_MIME_TYPE] }]]);
}
