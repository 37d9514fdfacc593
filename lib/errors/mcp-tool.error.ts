import { IntrinsicException } from '@nestjs/common';

/**
 * Throw from a tool to tell the model what went wrong in words it can act on. The caller
 * gets a tool result with `isError: true` whose text is `message`; `data`, when given,
 * becomes its `structuredContent`.
 *
 * It is an expected outcome, not a server fault, so Nest does not log it as an error.
 *
 * @example throw new McpToolError('No product with id 42. Call search_products to find ids.');
 * @publicApi
 */
export class McpToolError extends IntrinsicException {
  constructor(
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'McpToolError';
  }
}
