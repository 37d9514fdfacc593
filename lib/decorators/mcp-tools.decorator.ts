import { SetMetadata } from '@nestjs/common';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_TOOLS_METADATA } from '../mcp.constants.js';

/** Options of `@McpTools()`: defaults for every tool of the class. */
export type McpToolsOptions = Pick<McpToolOptions, 'annotations' | 'icons' | '_meta'>;

/**
 * Publishes every public method of a provider as a tool, or every route of a controller
 * (its `@Get()`, `@Post()`, ... methods; its other methods are left out): an API surface in
 * one line. Method names starting with `_` are left out. A method opts out with
 * `@McpHidden('reason')`, and `@McpTool()` on a method refines its options (name,
 * description, annotations). A provider's method must take a DTO (or nothing), as with
 * `@McpTool()`, or bootstrap fails naming it. A route's arguments are its `@Param()`,
 * `@Query()` and `@Body()` values merged into one object, and its HTTP method implies its
 * annotations (GET read only, DELETE destructive...) unless the options state them.
 *
 * @example
 * ```ts
 * @McpTools({ annotations: { readOnlyHint: true } })
 * @Injectable()
 * export class ReportsService { ... }
 *
 * @McpTools()
 * @Controller('products')
 * export class ProductsController {
 *   @Get(':id')
 *   findOne(@Param('id', ParseIntPipe) id: number) { ... }
 * }
 * ```
 * @publicApi
 */
export function McpTools(options: McpToolsOptions = {}): ClassDecorator {
  return SetMetadata(MCP_TOOLS_METADATA, options);
}
