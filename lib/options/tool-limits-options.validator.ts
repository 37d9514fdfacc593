import { isOptionsObject, isPositiveInteger } from './option-checks.js';
import { TOOL_CONCURRENCY_OPTION_KEYS } from './option-keys.js';
import { unknownOptionProblems } from './unknown-options.js';

/**
 * The longest timer Node keeps: a longer delay overflows and fires at once, so a
 * `timeoutMs` above it would stop every call immediately.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Where the limits are set: `@McpTool()` may turn a default off with `false`, the module may not. */
export type ToolLimitsSource = 'tool' | 'module';

const CONCURRENCY_EXAMPLE = '{ max: 4, perCaller: 1, queue: 8 }';

/** The problem of a `timeoutMs`, or `undefined` when it is one the library can use. */
function timeoutProblem(path: string, value: unknown, source: ToolLimitsSource) {
  if (value === undefined || (value === false && source === 'tool')) return undefined;
  if (isPositiveInteger(value) && value <= MAX_TIMEOUT_MS) return undefined;
  const off = source === 'tool' ? ", or false to turn the server's default off" : '';
  return `"${path}" must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, such as 30_000${off} (got ${JSON.stringify(value)})`;
}

/** The problems of a `concurrency`: a positive number, or an object with a limit. */
function concurrencyProblems(path: string, value: unknown, source: ToolLimitsSource): string[] {
  if (value === undefined || (value === false && source === 'tool')) return [];
  if (isPositiveInteger(value)) return [];
  const off = source === 'tool' ? ", or false to turn the server's default off" : '';
  if (!isOptionsObject(value)) {
    return [
      `"${path}" must be a positive whole number (the calls running at once) or an object such as ${CONCURRENCY_EXAMPLE}${off} (got ${JSON.stringify(value)})`,
    ];
  }
  // The module's unknown keys are reported by its own check, with every other option's.
  const problems =
    source === 'tool'
      ? unknownOptionProblems({ [path]: value }, { [path]: TOOL_CONCURRENCY_OPTION_KEYS })
      : [];
  for (const limit of ['max', 'perCaller'] as const) {
    if (value[limit] !== undefined && !isPositiveInteger(value[limit])) {
      problems.push(
        `"${path}.${limit}" must be a positive whole number (got ${JSON.stringify(value[limit])})`,
      );
    }
  }
  const { queue } = value;
  if (queue !== undefined && !(Number.isInteger(queue) && (queue as number) >= 0)) {
    problems.push(
      `"${path}.queue" must be a whole number of calls, 0 to refuse at once (got ${JSON.stringify(queue)})`,
    );
  }
  if (value.max === undefined && value.perCaller === undefined) {
    problems.push(
      `"${path}" needs "max" or "perCaller": the queue holds calls beyond a limit, such as ${CONCURRENCY_EXAMPLE}`,
    );
  }
  return problems;
}

/**
 * The problems of a tool's limits (`timeoutMs`, `concurrency`), named by their paths under
 * `prefix` (`''` for `@McpTool()`, `'tools.'` for the module's defaults).
 */
export function toolLimitsProblems(
  limits: Record<string, unknown>,
  prefix: string,
  source: ToolLimitsSource,
): string[] {
  const timeout = timeoutProblem(`${prefix}timeoutMs`, limits.timeoutMs, source);
  return [
    ...(timeout === undefined ? [] : [timeout]),
    ...concurrencyProblems(`${prefix}concurrency`, limits.concurrency, source),
  ];
}

/**
 * The problems of the `tools` option (its unknown keys are reported with the others, by
 * the module options' unknown-key check).
 */
export function toolsOptionsProblems(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!isOptionsObject(tools)) {
    return [`"tools" must be an object such as { timeoutMs: 30_000, concurrency: 8 }`];
  }
  return toolLimitsProblems(tools, 'tools.', 'module');
}
