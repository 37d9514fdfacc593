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

/**
 * The catalog of one server, as a caller whom no guard rejects sees it; with `i18n`, in
 * `locale` (one of the server's, or a region of one; the default locale for any other).
 */
export function describeServer(
  host: McpServerHost,
  withHidden = false,
  locale?: string,
): ServerCatalog {
  const { name, version } = host.options;
  // Only with `i18n` (a host that is not an McpServerHost, in tests, has no factory).
  const localization = (host.protocolServers as McpServerHost['protocolServers'] | undefined)
    ?.localization;
  const edition = localization?.edition(localization.pick(locale));
  const instructions = edition ? edition.instructions : host.options.instructions;
  const catalog: Record<string, unknown> = {
    name,
    version,
    ...(instructions && { instructions }),
    tools: edition ? host.tools().map((tool) => edition.tools.localize(tool)) : host.tools(),
  };
  const listings = host as unknown as Partial<Record<string, () => readonly unknown[]>>;
  const views: Record<string, { localize(definition: never): unknown } | undefined> = {
    prompts: edition?.prompts,
    resources: edition?.resources,
    resourceTemplates: edition?.templates,
  };
  for (const listing of OPTIONAL_LISTINGS) {
    const read = listings[listing];
    if (typeof read !== 'function') continue;
    const definitions = read.call(host);
    const view = views[listing];
    catalog[listing] = view
      ? definitions.map((entry) => view.localize(entry as never))
      : definitions;
  }
  if (withHidden) {
    catalog.hidden = host.hiddenMethods().map(({ where, reason }) => ({ where, reason }));
  }
  return catalog as unknown as ServerCatalog;
}
