import { SetMetadata } from '@nestjs/common';
import type { McpExtensionSettings } from '../interfaces/mcp-extension-options.interface.js';
import { MCP_EXTENSION_METADATA } from '../mcp.constants.js';

/** What `@McpExtension()` stores on the class. */
export interface McpExtensionMetadata {
  readonly id: string;
  readonly settings: McpExtensionSettings;
}

/**
 * Declares an MCP extension (SEP-2133) on a provider: the servers that publish the class's
 * entries advertise it in `capabilities.extensions` (`initialize`, `server/discover`) with
 * its settings, and its `@McpMethod()` methods belong to it. `@McpGroup()` on the class
 * chooses those servers, as for tools.
 *
 * @example
 * ```ts
 * @McpExtension('com.example/audit', { retentionDays: 30 })
 * @Injectable()
 * export class AuditExtension {
 *   @McpMethod('com.example/audit.query')
 *   query(params: AuditQuery) { ... }
 * }
 * ```
 * @publicApi
 */
export function McpExtension(id: string, settings: McpExtensionSettings = {}): ClassDecorator {
  return SetMetadata<string, McpExtensionMetadata>(MCP_EXTENSION_METADATA, { id, settings });
}
