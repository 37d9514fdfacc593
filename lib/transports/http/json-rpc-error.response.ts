import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR } from '@modelcontextprotocol/server';
import { ACCEPTED_ENCODINGS } from './content-encoding.inflater.js';

/**
 * A JSON-RPC error answer with `id: null`, for failures found before a request could be
 * read (the MCP SDK builds the same shape for its own transport-level rejections).
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** The SDK's generic server error code, used for 413, 415 and 503 as the SDK does. */
export const SERVER_ERROR = -32000;

/** The transport-level answers of the endpoint, in one place so both platforms agree. */
export const httpErrors = {
  unsupportedMediaType: (contentType: string | undefined) =>
    jsonRpcErrorResponse(
      415,
      SERVER_ERROR,
      `Unsupported Media Type: the MCP endpoint accepts only Content-Type application/json` +
        (contentType ? `, not ${contentType}` : ' (none was sent)'),
    ),
  // No `connection: close`: the rest of the body is read and dropped (`discardRestOfBody`),
  // and closing at once would reset the connection before the client reads this answer.
  tooLarge: (maxBytes: number) =>
    jsonRpcErrorResponse(
      413,
      SERVER_ERROR,
      `Payload Too Large: the request body must not exceed ${maxBytes} bytes ` +
        `(the http.maxBodyBytes option of McpModule)`,
    ),
  unsupportedEncoding: (contentEncoding: string) =>
    jsonRpcErrorResponse(
      415,
      SERVER_ERROR,
      `Unsupported Media Type: the MCP endpoint reads bodies with Content-Encoding ` +
        `${ACCEPTED_ENCODINGS} (or none), not ${contentEncoding}`,
      { 'accept-encoding': ACCEPTED_ENCODINGS },
    ),
  // `connection: close`: a body this slow is not waited for, nor is the rest of it read.
  bodyTimeout: (timeoutMs: number) =>
    jsonRpcErrorResponse(
      408,
      SERVER_ERROR,
      `Request Timeout: the request body did not arrive within ${timeoutMs} ms ` +
        `(the http.bodyTimeoutMs option of McpModule); send the body at once`,
      { connection: 'close' },
    ),
  inflationBomb: (detail: string) =>
    jsonRpcErrorResponse(413, SERVER_ERROR, `Payload Too Large: ${detail}`),
  parseError: (detail: string) =>
    jsonRpcErrorResponse(
      400,
      PARSE_ERROR,
      `Parse error: the request body is not valid JSON: ${detail}`,
    ),
  invalidInput: (message: string) =>
    jsonRpcErrorResponse(400, INVALID_REQUEST, `Invalid Request: ${message}`),
  shuttingDown: () =>
    jsonRpcErrorResponse(
      503,
      SERVER_ERROR,
      'Service Unavailable: the MCP server is shutting down; retry on another instance or later',
      { connection: 'close', 'retry-after': '1' },
    ),
  internal: () => jsonRpcErrorResponse(500, INTERNAL_ERROR, 'Internal error'),
};
