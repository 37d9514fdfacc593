import type { Tool } from '@modelcontextprotocol/server';
import type { McpHiddenMethod } from '../discovery/mcp.explorer.js';
import type { McpServerHost } from '../servers/mcp-server.host.js';

/** What `nestjs-mcp list` shows of one server (and prints as is with `--json`). */
export interface ServerCatalog {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly tools: readonly Tool[];
  /** Present when the library version publishes prompts. */
  readonly prompts?: readonly unknown[];
  /** Present when the library version publishes resources. */
  readonly resources?: readonly unknown[];
  /** Present when the library version publishes resource templates. */
  readonly resourceTemplates?: readonly unknown[];
  /** With `--hidden`: the methods kept off MCP, where they are and why. */
  readonly hidden?: readonly McpHiddenMethod[];
}

/**
 * The listings a host may offer besides `tools()`: read when the host has the method, so
 * the CLI shows prompts and resources as soon as their registry exists.
 */
const OPTIONAL_LISTINGS = ['prompts', 'resources', 'resourceTemplates'] as const;

/** The catalog of one server, as a caller whom no guard rejects sees it. */
export function describeServer(host: McpServerHost, withHidden = false): ServerCatalog {
  const { name, version, instructions } = host.options;
  const catalog: Record<string, unknown> = {
    name,
    version,
    ...(instructions && { instructions }),
    tools: host.tools(),
  };
  const listings = host as unknown as Partial<Record<string, () => readonly unknown[]>>;
  for (const listing of OPTIONAL_LISTINGS) {
    const read = listings[listing];
    if (typeof read === 'function') catalog[listing] = read.call(host);
  }
  if (withHidden) {
    catalog.hidden = host.hiddenMethods().map(({ where, reason }) => ({ where, reason }));
  }
  return catalog as unknown as ServerCatalog;
}
