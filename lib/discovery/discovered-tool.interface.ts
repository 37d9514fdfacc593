import type { Tool } from '@modelcontextprotocol/server';
import type { Type } from '@nestjs/common';
import type { ToolOutputValidator } from '../execution/tool-output.validator.js';
import type { JsonSchemaCheck } from '../schema/json-schema.check.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';

/** A tool found at bootstrap: what is listed, and where its method lives. */
export interface DiscoveredTool {
  /** The tool as `tools/list` publishes it, input schema included. */
  readonly definition: Tool;
  /** `Class.method`, for messages. */
  readonly where: string;
  readonly wrapper: InstanceWrapper;
  readonly methodName: string;
  /** The arguments DTO, or `undefined` for a tool without arguments. */
  readonly dto?: Type;
  /** The listed input schema, compiled at bootstrap for the call-time check (with `dto`). */
  readonly argumentsCheck?: JsonSchemaCheck;
  /** Checks results against the declared output (`@McpTool({ output })`), if any. */
  readonly outputValidator?: ToolOutputValidator;
}
