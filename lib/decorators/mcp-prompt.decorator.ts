import { SetMetadata } from '@nestjs/common';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import { MCP_PROMPT_METADATA } from '../mcp.constants.js';

/**
 * Publishes a method as an MCP prompt: a reusable message template the user picks in the
 * client. Its arguments are the method's DTO parameter (strings on the wire; the DTO's
 * class-validator rules check them, and its properties are the listed arguments, with
 * `required` from `@IsOptional()`). It returns a string (one user message), a content
 * block, a message (`{ role, content }`), a list of those, or a whole `GetPromptResult`.
 * Guards, interceptors, pipes and filters run as for a tool.
 *
 * @example
 * ```ts
 * @McpPrompt({ description: 'Draft a restock plan for a category.' })
 * restockPlan(args: RestockPlanArgs) {
 *   return `Plan the restock of ${args.category} for the next ${args.weeks} weeks.`;
 * }
 * ```
 * @publicApi
 */
export function McpPrompt(options: McpPromptOptions = {}): MethodDecorator {
  return SetMetadata(MCP_PROMPT_METADATA, options);
}
