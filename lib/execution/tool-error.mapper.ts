import type { CallToolResult } from '@modelcontextprotocol/server';
import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import { errorResult } from '../content/error-result.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { formatIssues } from '../validation/dto-arguments.validator.js';

/** Logs an unexpected error in full and returns a reference the caller may quote. */
export type UnexpectedErrorReporter = (error: unknown) => string;

/** What the transport adds to an error: a rate limiter's wait, for example. */
export interface ToolErrorHints {
  readonly retryAfterSeconds?: number;
}

/** A Nest `HttpException` in words: "<error> (<status>): <message>", and its body. */
export function describeHttpException(exception: HttpException) {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  const body =
    typeof response === 'string' ? { message: response } : (response as Record<string, unknown>);
  const message = Array.isArray(body.message)
    ? body.message.join('; ')
    : String(body.message ?? exception.message);
  const error = typeof body.error === 'string' ? body.error : (STATUS_CODES[statusCode] ?? 'Error');
  return { statusCode, error, message, body, text: `${error} (${statusCode}): ${message}` };
}

function httpExceptionResult(exception: HttpException, hints: ToolErrorHints): CallToolResult {
  const { statusCode, error, message, body, text } = describeHttpException(exception);
  const { retryAfterSeconds } = hints;
  const wait = retryAfterSeconds ? ` Retry after ${retryAfterSeconds} seconds.` : '';
  return errorResult(`${text}${wait}`, {
    ...body,
    ...(retryAfterSeconds && { retryAfterSeconds }),
    statusCode,
    error,
    message: body.message ?? message,
  });
}

/**
 * The one table from an error thrown inside a tool call to the result the caller gets
 * (DESIGN.md, "Error mapping"). Every row is an `isError` result, so that a model reads
 * it and can retry; protocol-level errors (unknown tool) never get here.
 *
 * | thrown                      | result                                                    |
 * | --------------------------- | --------------------------------------------------------- |
 * | InvalidArgumentsError   | each problem (JSON pointer, message, allowed values where   |
 * |                             | the rule lists them); the issues as structured content     |
 * | McpToolError                | its message; its `data` as structured content             |
 * | HttpException (any status)  | "<Error> (<status>): <message>" (+ "Retry after N seconds."
 * |                             | when a rate limiter said so); the Nest body as structured   |
 * | anything else               | a generic message with a log reference; detail only in log |
 */
export function toolErrorToResult(
  error: unknown,
  reportUnexpected: UnexpectedErrorReporter,
  hints: ToolErrorHints = {},
): CallToolResult {
  if (error instanceof InvalidArgumentsError) {
    return errorResult(formatIssues(error.issues), {
      error: 'invalid_arguments',
      issues: error.issues,
    });
  }
  if (error instanceof McpToolError) return errorResult(error.message, error.data);
  if (error instanceof HttpException) return httpExceptionResult(error, hints);
  const reference = reportUnexpected(error);
  return errorResult(
    `Internal error: the tool failed unexpectedly (reference ${reference}). ` +
      `The details were logged on the server; retrying with the same arguments may fail again.`,
  );
}
