import { readFileSync } from 'node:fs';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import {
  isInputRequiredResult,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import { appViewResourceMeta, appViewUri } from '../discovery/app-view.discovery.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { ResourceReader } from '../execution/json-rpc-invoker.factory.js';
import { McpCall } from '../execution/mcp-call.js';
import { resourceNotFound } from '../execution/protocol-error.mapper.js';
import type { VisibilityCheck } from '../execution/visibility.factory.js';
import type { McpAppViewOptions } from '../interfaces/mcp-app-options.interface.js';
import { unreadableViewFileMessage } from '../messages/apps.messages.js';
import { errorMessage } from '../utils/value-checks.util.js';
import type { McpCatalog } from './mcp-catalog.js';
import type { PrimitiveBinder } from './primitive.binder.js';
import type { RegisteredResource } from './registered-primitives.js';
import type { ServerAppView } from './server-app-views.js';

type Contents = ReadResourceResult['contents'][number];

const UNGUARDED: VisibilityCheck = Object.assign(async () => true, { guarded: false });

/**
 * The resource of one view on one server (`ui://<server>/<view>`), listed and read only by a
 * caller who may see a tool that shows it: for anyone else it does not exist, and a read
 * answers as for an unknown URI (a view says what its tool does; it must not leak).
 */
export function appViewResource(
  view: ServerAppView,
  server: string,
  catalog: McpCatalog,
  binder: PrimitiveBinder,
): RegisteredResource {
  const uri = appViewUri(server, view.name);
  const own =
    'file' in view
      ? fileView(view.name, uri, view.file, showingTools(catalog, view.name))
      : methodView(uri, view, binder);
  const visible = viewVisibility(view.name, catalog, own.isVisible);
  return {
    ...own,
    isVisible: visible,
    read: async (call, readUri) => {
      const scope = call.requestScope;
      const listing = new McpCall({
        kind: 'resource',
        name: uri,
        arguments: {},
        scope,
        phase: 'list',
      });
      if (!(await visible(listing))) throw resourceNotFound(readUri, call.era, call.texts);
      return own.read(call, readUri);
    },
  };
}

/** A view of the `apps.views` option: its file read now, once, and served as it is. */
function fileView(
  name: string,
  uri: string,
  options: McpAppViewOptions,
  tools: readonly string[],
): RegisteredResource {
  let html: string;
  try {
    html = readFileSync(options.file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error);
    throw new McpConfigurationError(unreadableViewFileMessage(name, options.file, reason, tools));
  }
  const meta = appViewResourceMeta(options);
  const definition: Resource = {
    uri,
    name,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    mimeType: RESOURCE_MIME_TYPE,
    ...(meta && { _meta: meta }),
  };
  const contents: Contents = {
    uri,
    mimeType: RESOURCE_MIME_TYPE,
    text: html,
    ...(meta && { _meta: meta }),
  };
  return {
    key: uri,
    definition,
    isVisible: UNGUARDED,
    read: async () => ({ contents: [{ ...contents }] }),
  };
}

/**
 * A view of an `@McpAppView()` method, bound to the pipeline as a resource method; the
 * view's `_meta.ui` goes on each content item (hosts read it there first).
 */
function methodView(
  uri: string,
  view: Extract<ServerAppView, { method: unknown }>,
  binder: PrimitiveBinder,
): RegisteredResource {
  const { resource } = view.method;
  const bound = binder.resource({
    ...resource,
    definition: { ...resource.definition, uri },
  }) as RegisteredResource;
  const meta = resource.definition._meta;
  if (!meta) return bound;
  const read: ResourceReader = async (call, readUri) => {
    const result = await bound.read(call, readUri);
    // An input-required round has no contents yet: it goes out as it is.
    if (isInputRequiredResult(result)) return result;
    return {
      ...result,
      contents: result.contents.map((item) => ({ ...item, _meta: { ...item._meta, ...meta } })),
    };
  };
  return { ...bound, read };
}

/**
 * Who sees a view: a caller its own guards (a method's) let through who also sees, by the
 * guards and scopes of the listing, a tool that names it. The tools are looked up per check,
 * so a tool added or removed at run time counts. Always guarded, even when no guard decides
 * at bootstrap: the tools that name the view may change at run time (the last one removed,
 * or an unguarded one giving way to a guarded one), and an unguarded entry is listed to
 * everyone without its check being run.
 */
function viewVisibility(view: string, catalog: McpCatalog, own: VisibilityCheck): VisibilityCheck {
  const toolsOf = () => toolsShowing(catalog, view);
  const check = async (call: McpCall): Promise<boolean> => {
    if (own.guarded && !(await own(call))) return false;
    const scope = call.requestScope;
    for (const tool of toolsOf()) {
      if (!tool.isVisible.guarded) return true;
      const listing = new McpCall({
        kind: 'tool',
        name: tool.key,
        arguments: {},
        scope,
        phase: 'list',
      });
      if (await tool.isVisible(listing)) return true;
    }
    return false;
  };
  return Object.assign(check, { guarded: true });
}

/** The tools of the catalog that show a view. */
const toolsShowing = (catalog: McpCatalog, view: string) =>
  catalog.tools.entries().filter((tool) => tool.app?.view === view);

/** Their names, for messages. */
export const showingTools = (catalog: McpCatalog, view: string): string[] =>
  toolsShowing(catalog, view).map((tool) => tool.key);
