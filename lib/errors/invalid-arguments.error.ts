import { IntrinsicException } from '@nestjs/common';
import type { ArgumentIssue } from '../interfaces/argument-issue.interface.js';
import type { McpPrimitiveKind } from '../interfaces/mcp-call-context.interface.js';

const WHAT: Record<McpPrimitiveKind, string> = {
  tool: 'arguments for tool',
  prompt: 'arguments for prompt',
  resource: 'URI variables for resource',
  method: 'params for method',
};

/**
 * The arguments of a call (a tool's or a prompt's arguments, a resource template's URI
 * variables) failed its DTO. Raised inside the Nest pipeline where pipes run (after
 * guards), so a caller that may not call the entry learns nothing of its arguments; an
 * app's `@Catch()` filters and interceptors see it there. Mapped to an `isError` result
 * (tools) or an invalid-params error (prompts, resources) that names each problem.
 * @publicApi
 */
export class InvalidArgumentsError extends IntrinsicException {
  constructor(
    /** The name of the tool or prompt, or the URI of the resource. */
    readonly target: string,
    /** Each problem, with a JSON Pointer to the value it is about. */
    readonly issues: ArgumentIssue[],
    readonly kind: McpPrimitiveKind = 'tool',
  ) {
    super(`Invalid ${WHAT[kind]} "${target}"`);
    this.name = 'InvalidArgumentsError';
  }
}
