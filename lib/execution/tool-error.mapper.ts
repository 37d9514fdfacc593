import type { CallToolResult } from '@modelcontextprotocol/server';
import { ForbiddenException, HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import { errorResult } from '../content/error-result.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { ToolBusyError, ToolTimeoutError } from './tool-limits.js';
import { formatIssues } from '../validation/dto-arguments.validator.js';
import {
  modelMessage,
  modelMessageOf,
  type ModelMessageId,
  type ModelMessageParams,
  type ModelMessageRef,
} from '../content/model-messages.js';
import type { LocalizedTexts } from '../localization/localized-texts.js';

/** Logs an unexpected error in full and returns a reference the caller may quote. */
export type UnexpectedErrorReporter = (error: unknown) => string;

/** What the transport adds to an error: a rate limiter's wait, for example. */
export interface ToolErrorHints {
  readonly retryAfterSeconds?: number;
}

/**
 * The `error` of the structured content of a call stopped by its tool's `timeoutMs`, and of
 * one refused by its `concurrency`: what telemetry records as `error.type`.
 */
export const TOOL_TIMEOUT = 'tool_timeout';
export const TOOL_CONCURRENCY_LIMIT = 'tool_concurrency_limit';

/**
 * The wait a refused call is asked for: a slot frees as soon as one call ends, so the
 * shortest wait the retry form can say.
 */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** A library message in the call's language, or in English without `i18n`. */
export const say = (
  texts: LocalizedTexts | undefined,
  id: ModelMessageId,
  params?: ModelMessageParams,
): string => (texts ? texts.message(id, params) : modelMessage(id, params));

/** Nest's words when a guard returns `false` (GuardsConsumer). */
const GUARD_REFUSAL = 'Forbidden resource';

/** The library message an exception words: one it marked, or Nest's guard refusal. */
function libraryMessageOf(exception: HttpException, message: string): ModelMessageRef | undefined {
  const marked = modelMessageOf(exception);
  if (marked) return marked;
  return exception instanceof ForbiddenException && message === GUARD_REFUSAL
    ? { id: 'forbidden', params: {} }
    : undefined;
}

/**
 * A Nest `HttpException` in words: "<error> (<status>): <message>", and its body; with
 * `texts`, a message of the library (a guard's refusal, missing scopes) in their language.
 */
export function describeHttpException(exception: HttpException, texts?: LocalizedTexts) {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  const body =
    typeof response === 'string' ? { message: response } : (response as Record<string, unknown>);
  let message = Array.isArray(body.message)
    ? body.message.join('; ')
    : String(body.message ?? exception.message);
  const library = texts && libraryMessageOf(exception, message);
  if (library) message = texts.message(library.id, library.params);
  const error = typeof body.error === 'string' ? body.error : (STATUS_CODES[statusCode] ?? 'Error');
  const localized = library !== undefined;
  return {
    statusCode,
    error,
    message,
    body,
    localized,
    text: `${error} (${statusCode}): ${message}`,
  };
}

function httpExceptionResult(
  exception: HttpException,
  hints: ToolErrorHints,
  texts: LocalizedTexts | undefined,
): CallToolResult {
  const { statusCode, error, message, body, text, localized } = describeHttpException(
    exception,
    texts,
  );
  const { retryAfterSeconds } = hints;
  const wait = retryAfterSeconds
    ? ` ${say(texts, 'retryAfter', { seconds: retryAfterSeconds })}`
    : '';
  return errorResult(`${text}${wait}`, {
    ...body,
    ...(retryAfterSeconds && { retryAfterSeconds }),
    statusCode,
    error,
    message: localized ? message : (body.message ?? message),
  });
}

/** A call refused by its tool's `concurrency`, in the retry form of a rate limiter's refusal. */
function busyResult({ tool: name, state }: ToolBusyError, texts?: LocalizedTexts): CallToolResult {
  const id = state.limit === 'max' ? 'toolBusy' : 'toolBusyForCaller';
  const { limit, value, running, waiting, queue } = state;
  const retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  const text = say(texts, id, {
    name,
    limit: `concurrency.${limit}`,
    value,
    running,
    waiting,
    queue,
  });
  return errorResult(`${text} ${say(texts, 'retryAfter', { seconds: retryAfterSeconds })}`, {
    error: TOOL_CONCURRENCY_LIMIT,
    limit: `concurrency.${limit}`,
    value,
    running,
    waiting,
    queue,
    retryAfterSeconds,
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
 * | ToolTimeoutError            | the tool timed out after N ms and was stopped               |
 * | ToolBusyError               | the limit that refused it, "Retry after 1 seconds."; the    |
 * |                             | counts and `retryAfterSeconds` as structured content        |
 * | anything else               | a generic message with a log reference; detail only in log |
 */
export function toolErrorToResult(
  error: unknown,
  reportUnexpected: UnexpectedErrorReporter,
  hints: ToolErrorHints = {},
  texts?: LocalizedTexts,
): CallToolResult {
  if (error instanceof InvalidArgumentsError) {
    const issues = texts ? texts.issues(error.issues) : error.issues;
    const allowed = texts && ((values: string) => texts.message('allowedValues', { values }));
    return errorResult(formatIssues(issues, texts?.message('invalidArguments'), allowed), {
      error: 'invalid_arguments',
      issues,
    });
  }
  if (error instanceof McpToolError) return errorResult(error.message, error.data);
  if (error instanceof ToolTimeoutError) {
    const { tool: name, timeoutMs } = error;
    return errorResult(say(texts, 'toolTimedOut', { name, timeoutMs }), {
      error: TOOL_TIMEOUT,
      timeoutMs,
    });
  }
  if (error instanceof ToolBusyError) return busyResult(error, texts);
  if (error instanceof HttpException) return httpExceptionResult(error, hints, texts);
  const reference = reportUnexpected(error);
  return errorResult(say(texts, 'internalError', { reference }));
}
