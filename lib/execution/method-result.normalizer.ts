import { isInputRequiredResult, type Result } from '@modelcontextprotocol/server';
import { isPlainObject } from '../utils/value-checks.util.js';

/** What a value is, for the message: `an array`, `a Date`, `a string`. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `a ${value?.constructor?.name ?? 'object'}`;
  return `a ${typeof value}`;
}

/**
 * Turns what an `@McpMethod()` returned into its JSON-RPC result: an object as it is,
 * `{}` for nothing (`undefined` or `null`). A `Date`, a `Map` or a class instance is
 * refused too: JSON would make it a string or `{}`.
 * @throws TypeError for anything else, and for `inputRequired(...)` (multi round-trip is
 * defined for MCP's own methods only): a programming error, reported as an internal error
 */
export function normalizeMethodResult(value: unknown, where: string): Result {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    throw new TypeError(
      `${where} returned ${describe(value)}: an extension method returns a plain object ` +
        `(its JSON-RPC result), such as { entries }.`,
    );
  }
  if (isInputRequiredResult(value)) {
    throw new TypeError(
      `${where} returned inputRequired(...), which only MCP's own methods (tools/call, ` +
        `prompts/get, resources/read) may answer: an extension method answers in one round.`,
    );
  }
  return value as Result;
}
