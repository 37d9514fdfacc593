import { isInputRequiredResult, type Result } from '@modelcontextprotocol/server';

/**
 * Turns what an `@McpMethod()` returned into its JSON-RPC result: an object as it is,
 * `{}` for nothing (`undefined` or `null`).
 * @throws TypeError for anything else, and for `inputRequired(...)` (multi round-trip is
 * defined for MCP's own methods only): a programming error, reported as an internal error
 */
export function normalizeMethodResult(value: unknown, where: string): Result {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(
      `${where} returned ${Array.isArray(value) ? 'an array' : typeof value}: an extension ` +
        `method returns an object (its JSON-RPC result), such as { entries }.`,
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
