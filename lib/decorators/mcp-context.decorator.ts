import { McpParamtype } from '../mcp.constants.js';
import { assignParamMetadata } from './param-metadata.util.js';

/**
 * Injects the {@link McpCallContext} of the current call: the tool name, the raw
 * arguments, the protocol era, the abort signal and the HTTP request.
 *
 * @example
 * ```ts
 * @McpTool()
 * search(query: SearchDto, @McpContext() call: McpCallContext) { ... }
 * ```
 * @publicApi
 */
export function McpContext(): ParameterDecorator {
  return assignParamMetadata(McpParamtype.CONTEXT);
}
