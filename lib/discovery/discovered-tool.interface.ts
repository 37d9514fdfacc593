import type { Tool } from '@modelcontextprotocol/server';
import type { ToolOutputValidator } from '../validation/tool-output.validator.js';
import type { DiscoveredMethod } from './discovered-method.interface.js';

/** A tool found at bootstrap: what is listed, and where its method lives. */
export interface DiscoveredTool extends DiscoveredMethod {
  /** The tool as `tools/list` publishes it, input schema included. */
  readonly definition: Tool;
  /** Checks results against the declared output (`@McpTool({ output })`), if any. */
  readonly outputValidator?: ToolOutputValidator;
}
