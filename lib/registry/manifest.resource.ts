import type { ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import { McpCall } from '../execution/mcp-call.js';
import type { VisibilityCheck } from '../execution/visibility.factory.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import type { McpCatalog } from './mcp-catalog.js';
import type { RegisteredResource } from './registered-primitives.js';

/** One tool of the manifest: what a client needs to choose it, and the scopes it needs. */
export interface McpManifestTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: Tool['annotations'];
  /** The scopes `@McpScopes()` requires: all of them, or one of them with `scopeMatch: 'any'`. */
  readonly scopes: readonly string[];
  readonly scopeMatch?: 'any';
}

/** The JSON the manifest resource answers with. */
export interface McpManifest {
  readonly server: string;
  readonly tools: readonly McpManifestTool[];
}

/** The URI of a server's manifest: the `manifest` option's string, else `mcp://<name>/manifest`. */
export const manifestUri = (server: string, manifest: true | string): string =>
  manifest === true ? `mcp://${encodeURIComponent(server)}/manifest` : manifest;

const EVERYONE: VisibilityCheck = Object.assign(async () => true, { guarded: false });

/**
 * The manifest resource of one server (the `manifest` option): for the identity that reads
 * it, the tools `tools/list` would show it (hidden tools are not published at all, and tools
 * its guards refuse are left out by the same check), with the scopes each needs. Read per
 * request, so tools added or removed at run time are in it.
 */
export function manifestResource(
  server: string,
  uri: string,
  catalog: McpCatalog,
  scopesOf: (toolName: string) => McpScopeRequirement | undefined,
): RegisteredResource {
  return {
    key: uri,
    definition: {
      uri,
      name: 'manifest',
      title: `${server} manifest`,
      description:
        `The tools of the MCP server "${server}" that you can see and call, with what each ` +
        `does, its behaviour hints and the OAuth scopes it needs.`,
      mimeType: 'application/json',
    },
    isVisible: EVERYONE,
    read: async (call): Promise<ReadResourceResult> => {
      const scope = call.requestScope;
      const { items } = await catalog.tools.page(
        (entry) =>
          new McpCall({ kind: 'tool', name: entry.key, arguments: {}, scope, phase: 'list' }),
        undefined,
        Number.MAX_SAFE_INTEGER,
      );
      const manifest: McpManifest = {
        server,
        tools: items.map((tool) => manifestToolOf(tool, scopesOf(tool.name))),
      };
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(manifest, null, 2) }],
      };
    },
  };
}

function manifestToolOf(tool: Tool, requirement: McpScopeRequirement | undefined): McpManifestTool {
  const title = tool.title ?? tool.annotations?.title;
  const any = requirement !== undefined && 'any' in requirement;
  return {
    name: tool.name,
    ...(title !== undefined && { title }),
    ...(tool.description !== undefined && { description: tool.description }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    scopes: requirement ? [...('any' in requirement ? requirement.any : requirement.all)] : [],
    ...(any && { scopeMatch: 'any' as const }),
  };
}
