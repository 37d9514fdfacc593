import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type {
  McpToolTaskMode,
  McpToolTaskOptions,
} from '../interfaces/mcp-task-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { invalidTaskOptionMessage } from '../messages/discovery.messages.js';

const MODES: readonly McpToolTaskMode[] = ['optional', 'required'];

const positive = (value: unknown) =>
  value === undefined || (Number.isInteger(value) && (value as number) > 0);

/**
 * The `task` option of `@McpTool()` in its full form, checked at bootstrap: `undefined`
 * for a tool that never runs as a task.
 */
export function checkedTaskOption(
  task: McpToolOptions['task'],
  where: string,
): McpToolTaskOptions | undefined {
  if (task === undefined) return undefined;
  const full = typeof task === 'string' ? { mode: task } : task;
  const problem = !MODES.includes(full?.mode)
    ? `"mode" must be 'optional' or 'required' (got ${JSON.stringify(full?.mode)})`
    : !positive(full.ttlMs)
      ? `"ttlMs" must be a positive whole number of milliseconds (got ${JSON.stringify(full.ttlMs)})`
      : !positive(full.pollIntervalMs)
        ? `"pollIntervalMs" must be a positive whole number of milliseconds (got ${JSON.stringify(full.pollIntervalMs)})`
        : undefined;
  if (problem) throw new McpConfigurationError(invalidTaskOptionMessage(where, problem));
  return full;
}
