import { SetMetadata } from '@nestjs/common';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import { MCP_RESOURCE_METADATA } from '../mcp.constants.js';

/**
 * Publishes a method as an MCP resource that clients list and read. With a URI template
 * (`catalog://products/{sku}`) it serves a family of resources: the variables of the
 * requested URI reach the method as its DTO parameter, converted to the DTO's types
 * (numbers, booleans) and checked by its class-validator rules.
 *
 * The method returns a string (text contents), a `Buffer`/`Uint8Array` (binary contents,
 * sent base64-encoded), resource contents (`{ uri, text }`/`{ uri, blob }`), a list of
 * them, or any other object (sent as JSON). Throw `NotFoundException` for a URI that
 * names nothing: the client gets the protocol's "resource not found".
 *
 * @example
 * ```ts
 * @McpResource({ uri: 'catalog://products/{sku}', mimeType: 'application/json' })
 * product(params: ProductUriParams) { return this.catalog.get(params.sku); }
 * ```
 * @publicApi
 */
export function McpResource(options: McpResourceOptions): MethodDecorator {
  return SetMetadata(MCP_RESOURCE_METADATA, options);
}
