import { SetMetadata } from '@nestjs/common';
import { MCP_HIDDEN_METADATA } from '../mcp.constants.js';

/**
 * Keeps one method of an `@McpTools()` class off MCP. The reason is required: it is what
 * the next reader (and the startup log, and `McpServerHost#hiddenMethods()`) sees.
 *
 * @example
 * ```ts
 * @McpHidden('Charges the card; only the checkout flow may call it.')
 * capturePayment(dto: CaptureDto) { ... }
 * ```
 * @publicApi
 */
export function McpHidden(reason: string): MethodDecorator {
  return SetMetadata(MCP_HIDDEN_METADATA, reason);
}
