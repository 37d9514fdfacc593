import { SetMetadata } from '@nestjs/common';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_TOOLS_METADATA } from '../mcp.constants.js';

/** Options of `@McpTools()`: defaults for every tool of the class. */
export type McpToolsOptions = Pick<McpToolOptions, 'annotations' | 'icons' | '_meta'>;

/**
 * Publishes every public method of a provider or controller as a tool: an API surface in
 * one line. Method names starting with `_` are left out. A method opts out with
 * `@McpHidden('reason')`, and `@McpTool()` on a method refines its options (name,
 * description, annotations). Every published method must take a DTO (or nothing), as with
 * `@McpTool()`, or bootstrap fails naming it.
 *
 * @example
 * ```ts
 * @McpTools({ annotations: { readOnlyHint: true } })
 * @Injectable()
 * export class ReportsService { ... }
 * ```
 * @publicApi
 */
export function McpTools(options: McpToolsOptions = {}): ClassDecorator {
  return SetMetadata(MCP_TOOLS_METADATA, options);
}
