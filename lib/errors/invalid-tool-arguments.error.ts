import { IntrinsicException } from '@nestjs/common';
import type { ArgumentIssue } from '../execution/dto-arguments.validator.js';
import type { McpPrimitiveKind } from '../interfaces/mcp-call-context.interface.js';

const WHAT: Record<McpPrimitiveKind, string> = {
  tool: 'arguments for tool',
  prompt: 'arguments for prompt',
  resource: 'URI variables for resource',
};

/**
 * The arguments of a call failed its DTO. Raised inside the Nest pipeline where pipes run
 * (after guards), so a caller that may not call the tool learns nothing of its arguments;
 * mapped to an `isError` result (tools) or an invalid-params error (prompts, resources)
 * that names each problem.
 */
export class InvalidToolArgumentsError extends IntrinsicException {
  constructor(
    readonly toolName: string,
    readonly issues: ArgumentIssue[],
    readonly kind: McpPrimitiveKind = 'tool',
  ) {
    super(`Invalid ${WHAT[kind]} "${toolName}"`);
    this.name = 'InvalidToolArgumentsError';
  }
}
