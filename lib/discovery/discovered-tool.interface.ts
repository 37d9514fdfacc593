import type { Tool } from '@modelcontextprotocol/server';
import type { McpToolAppOptions } from '../interfaces/mcp-app-options.interface.js';
import type { McpNamingTarget } from '../interfaces/mcp-naming.interface.js';
import type { McpToolTaskOptions } from '../interfaces/mcp-task-options.interface.js';
import type { ToolOutputValidator } from '../validation/tool-output.validator.js';
import type { DiscoveredMethod } from './discovered-method.interface.js';
import type { McpToolLimitOptions } from './tool-limits.option.js';

/** A tool found at bootstrap: what is listed, and where its method lives. */
export interface DiscoveredTool extends DiscoveredMethod {
  /** The tool as `tools/list` publishes it, input schema included. */
  readonly definition: Tool;
  /** Former names `tools/call` still accepts (`@McpTool({ aliases })`); never listed. */
  readonly aliases?: readonly string[];
  /** Present when the name is the default one, which a server's `naming` option replaces. */
  readonly naming?: McpNamingTarget;
  /** How the tool runs as an MCP task (`@McpTool({ task })`); absent: never. */
  readonly task?: McpToolTaskOptions;
  /** How the tool takes part in MCP Apps (`@McpTool({ app })`), checked; absent: not at all. */
  readonly app?: McpToolAppOptions;
  /**
   * The tool's own time and concurrency limits (`@McpTool({ timeoutMs, concurrency })`),
   * checked; each server adds its `tools` defaults when it binds the tool.
   */
  readonly limits?: McpToolLimitOptions;
  /** Checks results against the declared output (`@McpTool({ output })`), if any. */
  readonly outputValidator?: ToolOutputValidator;
  /**
   * The tool as a server with `schema: { nullableOptionals: true }` lists and checks it
   * (optional properties nullable), built on the first call and kept; `undefined` when
   * that form is this one. Absent for a tool without an arguments DTO.
   */
  readonly withNullableOptionals?: () =>
    Pick<DiscoveredTool, 'definition' | 'checkArguments'> | undefined;
}
