import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import { HttpException, NotFoundException } from '@nestjs/common';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { formatIssues } from '../validation/dto-arguments.validator.js';
import { modelMessage } from '../content/model-messages.js';
import type { LocalizedTexts } from '../localization/localized-texts.js';
import { describeHttpException, say, type UnexpectedErrorReporter } from './tool-error.mapper.js';

/**
 * "Resource not found" as the negotiated revision words it: `-32002` for 2025-era
 * clients (2025-11-25), `-32602` with `data.uri` for 2026-07-28.
 */
export function resourceNotFound(
  uri: string,
  era: ProtocolEra,
  texts?: LocalizedTexts,
): ProtocolError {
  const message = texts
    ? texts.message('resourceNotFound', { uri })
    : modelMessage('resourceNotFound', { uri });
  return era === 'modern'
    ? new ResourceNotFoundError(uri, message)
    : new ProtocolError(ProtocolErrorCode.ResourceNotFound, message, { uri });
}

/**
 * A URI longer than the `maxUriLength` option, refused before any template is matched
 * against it: `-32602` in every revision, with the length and the limit in `data`.
 */
export function uriTooLong(length: number, limit: number, texts?: LocalizedTexts): ProtocolError {
  const params = { length, limit };
  const message = texts ? texts.message('uriTooLong', params) : modelMessage('uriTooLong', params);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, {
    length,
    maxUriLength: limit,
  });
}

/**
 * The table from an error thrown by a prompt or resource method to the JSON-RPC error the
 * caller gets (prompts and resources have no `isError` result):
 *
 * | thrown                          | error                                              |
 * | ------------------------------- | -------------------------------------------------- |
 * | ProtocolError                   | itself                                             |
 * | InvalidArgumentsError       | -32602, each problem named; `data.issues`          |
 * | NotFoundException (resource)    | resource not found, as the revision words it       |
 * | HttpException 4xx / McpToolError| -32602 with its message                            |
 * | HttpException 5xx               | -32603 with its message                            |
 * | anything else                   | -32603, a generic message with a log reference     |
 */
export function toProtocolError(
  error: unknown,
  target: { readonly era: ProtocolEra; readonly uri?: string },
  reportUnexpected: UnexpectedErrorReporter,
  texts?: LocalizedTexts,
): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof InvalidArgumentsError) {
    const issues = texts ? texts.issues(error.issues) : error.issues;
    const heading = texts && say(texts, 'invalidArguments');
    const allowed = texts && ((values: string) => say(texts, 'allowedValues', { values }));
    return new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      formatIssues(issues, heading, allowed),
      {
        issues,
      },
    );
  }
  if (error instanceof NotFoundException && target.uri !== undefined) {
    return resourceNotFound(target.uri, target.era, texts);
  }
  if (error instanceof McpToolError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.data);
  }
  if (error instanceof HttpException) {
    const { text, statusCode } = describeHttpException(error, texts);
    const code =
      statusCode < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
    return new ProtocolError(code, text, { statusCode });
  }
  const reference = reportUnexpected(error);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Internal error (reference ${reference}); the details were logged on the server.`,
  );
}
