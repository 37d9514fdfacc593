import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { invalidToolLimitsMessage } from '../messages/discovery.messages.js';
import { toolLimitsProblems } from '../options/tool-limits-options.validator.js';

/** A tool's own limits, as `@McpTool()` declares them (each server adds its defaults). */
export type McpToolLimitOptions = Pick<McpToolOptions, 'timeoutMs' | 'concurrency'>;

/**
 * The `timeoutMs` and `concurrency` options of `@McpTool()`, checked at bootstrap:
 * `undefined` for a tool that sets neither.
 */
export function checkedToolLimits(
  options: McpToolOptions,
  where: string,
): McpToolLimitOptions | undefined {
  const { timeoutMs, concurrency } = options;
  if (timeoutMs === undefined && concurrency === undefined) return undefined;
  const problems = toolLimitsProblems({ timeoutMs, concurrency }, '', 'tool');
  if (problems.length > 0) {
    throw new McpConfigurationError(invalidToolLimitsMessage(where, problems));
  }
  return {
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(concurrency !== undefined && { concurrency }),
  };
}
