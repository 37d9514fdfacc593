import { SetMetadata } from '@nestjs/common';
import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import { MCP_COMPLETION_METADATA } from '../mcp.constants.js';

/**
 * Makes a method the completer of one prompt argument or one URI template variable, for
 * values only known at run time. It receives the typed prefix and an
 * {@link McpCompletionContext}, and returns matching values (at most 100 are sent, with
 * the total and `hasMore`). Arguments with `@IsEnum()`/`@IsIn()` rules are completed from
 * those values without a completer.
 *
 * @example
 * ```ts
 * @McpCompletion({ prompt: 'restock_plan', argument: 'category' })
 * categories(prefix: string) { return this.catalog.categoryNames(prefix); }
 * ```
 * @publicApi
 */
export function McpCompletion(target: McpCompletionTarget): MethodDecorator {
  return SetMetadata(MCP_COMPLETION_METADATA, target);
}
