import type { CompleteResult } from '@modelcontextprotocol/server';
import type { McpCompletionContext } from '../interfaces/mcp-completion.interface.js';
import { MAX_COMPLETION_VALUES } from '../mcp.constants.js';
import { listedValues } from '../schema/string-values.coercer.js';
import type { RegisteredPrompt, RegisteredTemplate } from './registered-primitives.js';

/**
 * Completes one argument of a prompt or one variable of a template: with its
 * `@McpCompletion()` method when it has one, else from the values its DTO lists
 * (`@IsEnum()`, `@IsIn()`) that start with what was typed (case-insensitive). At most 100
 * values are sent, with the total and whether there are more.
 */
export async function completeArgument(
  target: RegisteredPrompt | RegisteredTemplate,
  argument: { name: string; value: string },
  context: McpCompletionContext,
): Promise<CompleteResult['completion']> {
  const completer = target.completers.get(argument.name);
  if (completer) {
    const answer = await completer(argument.value, context);
    const values = Array.isArray(answer) ? answer : answer.values;
    const total = Array.isArray(answer) ? values.length : (answer.total ?? values.length);
    return capped(values, total, Array.isArray(answer) ? undefined : answer.hasMore);
  }
  const prefix = argument.value.toLowerCase();
  const matching = (listedValues(target.argumentsSchema, argument.name) ?? []).filter((value) =>
    value.toLowerCase().startsWith(prefix),
  );
  return capped(matching, matching.length);
}

function capped(
  values: readonly string[],
  total: number,
  hasMore?: boolean,
): CompleteResult['completion'] {
  const sent = values.slice(0, MAX_COMPLETION_VALUES).map(String);
  return {
    values: sent,
    total: Math.max(total, sent.length),
    hasMore: hasMore ?? total > sent.length,
  };
}
