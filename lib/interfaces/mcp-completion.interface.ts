import type { McpCallContext } from './mcp-call-context.interface.js';

/** What `@McpCompletion()` completes: an argument of a prompt or a variable of a template. */
export type McpCompletionTarget =
  { prompt: string; argument: string } | { resource: string; argument: string };

/** A completer's answer: the values, or the values with the total the server knows of. */
export type McpCompletionValues =
  string[] | { values: string[]; total?: number; hasMore?: boolean };

/** What a completer method receives besides the typed prefix. */
export interface McpCompletionContext {
  /** Arguments (or variables) the user already filled in, by name. */
  readonly arguments: Readonly<Record<string, string>>;
  /** The argument being completed. */
  readonly argument: string;
  /** The request: caller, era, abort signal. */
  readonly call: McpCallContext;
}
