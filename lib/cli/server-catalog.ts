import type { Tool } from '@modelcontextprotocol/server';
import type { McpHiddenMethod } from '../discovery/mcp.explorer.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';

/** What `nestjs-mcp list` shows of one server (and prints as is with `--json`). */
export interface ServerCatalog {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly tools: readonly Tool[];
  /** Absent in the JSON of a library version that published no prompts. */
  readonly prompts?: readonly unknown[];
  /** Absent in the JSON of a library version that published no resources. */
  readonly resources?: readonly unknown[];
  /** Absent in the JSON of a library version that published no resource templates. */
  readonly resourceTemplates?: readonly unknown[];
  /** With `--hidden`: the methods kept off MCP, where they are and why. */
  readonly hidden?: readonly McpHiddenMethod[];
}

/**
 * The catalog of one server, as a caller whom no guard rejects sees it; with `i18n`, in
 * `locale` (one of the server's, or a region of one; the default locale for any other).
 */
export function describeServer(
  server: Pick<McpProtocolRuntime, 'options' | 'localization' | 'published'>,
  withHidden = false,
  locale?: string,
): ServerCatalog {
  const { name, version } = server.options;
  const { localization } = server;
  const edition = localization?.edition(localization.pick(locale));
  const instructions = edition ? edition.instructions : server.options.instructions;
  const { tools, prompts, resources, resourceTemplates, hidden } = server.published();
  return {
    name,
    version,
    ...(instructions && { instructions }),
    tools: edition ? tools.map((tool) => edition.tools.localize(tool)) : tools,
    prompts: edition ? prompts.map((prompt) => edition.prompts.localize(prompt)) : prompts,
    resources: edition ? resources.map((entry) => edition.resources.localize(entry)) : resources,
    resourceTemplates: edition
      ? resourceTemplates.map((entry) => edition.templates.localize(entry))
      : resourceTemplates,
    ...(withHidden && { hidden: hidden.map(({ where, reason }) => ({ where, reason })) }),
  };
}
