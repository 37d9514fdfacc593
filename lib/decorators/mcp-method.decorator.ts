import { SetMetadata } from '@nestjs/common';
import type { McpMethodOptions } from '../interfaces/mcp-extension-options.interface.js';
import { MCP_METHOD_METADATA } from '../mcp.constants.js';

/** What `@McpMethod()` stores on the method. */
export interface McpMethodMetadata extends McpMethodOptions {
  readonly method: string;
}

/**
 * Handles a JSON-RPC method that an extension adds to MCP (`com.example/audit.query`): a
 * client that declared the extension calls it with `params`, which the method's DTO
 * parameter validates, and gets back the object the method returns (`{}` for nothing).
 * Guards, interceptors, pipes, filters and telemetry run as for a tool; its failures are
 * JSON-RPC errors, as for a prompt. A caller that did not declare the extension gets
 * `-32021` (missing client capability); a method no server handles stays `-32601`.
 *
 * @example
 * ```ts
 * @McpMethod('com.example/audit.query', { extension: 'com.example/audit' })
 * query(params: AuditQuery, @McpContext() ctx: McpCallContext) {
 *   return { entries: this.audit.find(params.since) };
 * }
 * ```
 * @publicApi
 */
export function McpMethod(method: string, options: McpMethodOptions = {}): MethodDecorator {
  return SetMetadata<string, McpMethodMetadata>(MCP_METHOD_METADATA, { ...options, method });
}
