import { SetMetadata } from '@nestjs/common';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';

/**
 * Publishes a method of a provider or controller as an MCP tool.
 *
 * The method's arguments object is its class-validator DTO parameter: its JSON Schema is
 * listed to clients and every call is validated against it before the method runs. The
 * Nest pipeline applies as on a route: `@UseGuards()`, `@UseInterceptors()`,
 * `@UsePipes()`, `@UseFilters()` and the app's global enhancers run on each call.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Search products by text', annotations: { readOnlyHint: true } })
 * search(query: SearchProductsDto) { ... }
 * ```
 * @publicApi
 */
export function McpTool(options: McpToolOptions = {}): MethodDecorator {
  return SetMetadata(MCP_TOOL_METADATA, options);
}
