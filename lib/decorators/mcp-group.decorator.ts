import { SetMetadata } from '@nestjs/common';
import type { McpGroupOptions } from '../interfaces/mcp-group-options.interface.js';
import { MCP_GROUP_METADATA } from '../mcp.constants.js';

/** What `@McpGroup()` stores on the class. */
export interface McpGroupMetadata extends McpGroupOptions {
  readonly group: string;
}

/**
 * Publishes the tools, prompts and resources of a class only on the MCP servers of a group
 * (`McpModule.forRoot({ name, version, group: 'catalog' })`), and, with `version`, only on
 * the servers of that group version (`groupVersion`). `group` and `version` of
 * `@McpTool()`, `@McpPrompt()` and `@McpResource()` refine it per method. Completers
 * (`@McpCompletion()`) follow the prompt or template they complete.
 *
 * @example
 * ```ts
 * @McpGroup('catalog', { version: '2' })
 * @Injectable()
 * export class CatalogV2Tools { ... }
 * ```
 * @publicApi
 */
export function McpGroup(group: string, options: McpGroupOptions = {}): ClassDecorator {
  return SetMetadata<string, McpGroupMetadata>(MCP_GROUP_METADATA, { ...options, group });
}
