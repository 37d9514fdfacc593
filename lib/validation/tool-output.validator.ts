import type { CallToolResult, ProtocolEra } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { errorResult } from '../content/error-result.js';
import { compileJsonSchema, type JsonSchemaCheck } from '../schema/json-schema.check.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';

/**
 * Holds a tool to its declared output (`@McpTool({ output })`), with the `outputSchema` it
 * lists compiled once, at bootstrap, by the MCP SDK's validator. Every result passes here
 * before it is sent:
 *
 * - a success result must carry `structuredContent` that matches the schema; otherwise the
 *   client gets an `isError` result naming the mismatch (the data is not sent, since a
 *   client would reject it), and the server log gets the same with the tool's location;
 * - an error result is passed on, but without `structuredContent` for 2025-era clients:
 *   the v1 SDK client validates it against the output schema even when `isError` is set,
 *   and would turn a readable error into an exception.
 */
export class ToolOutputValidator {
  private readonly logger = new Logger(ToolOutputValidator.name);
  private readonly check: JsonSchemaCheck;

  constructor(
    private readonly toolName: string,
    private readonly where: string,
    outputSchema: JsonSchema,
  ) {
    this.check = compileJsonSchema(outputSchema, 'the result');
  }

  apply(result: CallToolResult, era: ProtocolEra): CallToolResult {
    if (result.isError) {
      if (era !== 'legacy' || result.structuredContent === undefined) return result;
      const { structuredContent: _dropped, ...rest } = result;
      return rest;
    }
    if (result.structuredContent === undefined) {
      return this.mismatch([
        'the tool returned no data (only content blocks, or nothing), but it declares an output',
      ]);
    }
    const issues = this.check(result.structuredContent);
    if (issues.length === 0) return result;
    return this.mismatch(issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`));
  }

  private mismatch(problems: string[]): CallToolResult {
    const list = problems.map((problem) => `- ${problem}`).join('\n');
    this.logger.error(
      `Tool "${this.toolName}" (${this.where}) returned a result that does not match its ` +
        `declared output; it was not sent:\n${list}`,
    );
    return errorResult(
      `Internal error: the result of "${this.toolName}" does not match its declared ` +
        `output schema, so it was not sent:\n${list}`,
    );
  }
}
