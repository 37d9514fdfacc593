import { SetMetadata } from '@nestjs/common';
import type { McpAppViewDecoratorOptions } from '../interfaces/mcp-app-options.interface.js';
import { MCP_APP_VIEW_METADATA } from '../mcp.constants.js';

/** What `@McpAppView()` stores on the method. */
export interface McpAppViewMetadata {
  readonly name: string;
  readonly options: McpAppViewDecoratorOptions;
}

/**
 * Makes a provider method the HTML of an MCP Apps view (docs/apps.md), for the tools that
 * name it with `@McpTool({ app: { view } })`. The view is the resource
 * `ui://<server name>/<view name>`; each read calls the method (string or promise of one)
 * through the Nest pipeline, as a resource method: DI, guards, interceptors. Prefer the
 * `apps.views` option for a file built ahead; use this for HTML the app makes.
 *
 * @example
 * ```ts
 * @McpAppView('product-card', { csp: { connectDomains: ['https://api.example.com'] } })
 * productCard() { return this.views.render('product-card'); }
 * ```
 * @publicApi
 */
export function McpAppView(
  name: string,
  options: McpAppViewDecoratorOptions = {},
): MethodDecorator {
  return SetMetadata<string, McpAppViewMetadata>(MCP_APP_VIEW_METADATA, { name, options });
}
