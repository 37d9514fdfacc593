import { IntrinsicException } from '@nestjs/common';
import type { ArgumentIssue } from '../execution/dto-arguments.validator.js';

/**
 * The arguments of a call failed the tool's DTO. Raised inside the Nest pipeline where
 * pipes run (after guards), so a caller that may not call the tool learns nothing of its
 * arguments; mapped to an `isError` result that names each problem.
 */
export class InvalidToolArgumentsError extends IntrinsicException {
  constructor(
    readonly toolName: string,
    readonly issues: ArgumentIssue[],
  ) {
    super(`Invalid arguments for tool "${toolName}"`);
    this.name = 'InvalidToolArgumentsError';
  }
}
