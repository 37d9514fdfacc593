import type { HttpExchange } from './http-exchange.factory.js';
import type { ClientGone } from './client-gone.js';
import { bodyReadBefore } from './express-body.middleware.js';
import { messageFrame } from './lean-event.stream.js';
import { SERVER_ERROR } from './json-rpc-error.response.js';

/** The id of the JSON-RPC request a POST carried, when the platform or the endpoint read it. */
function requestIdOf(exchange: HttpExchange): string | number | null {
  const read = bodyReadBefore(exchange);
  const body = read && ('ok' in read ? (read.ok ? read.body : undefined) : read.value);
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Ends a request still in flight when shutdown stopped waiting for it (past
 * `http.shutdownTimeoutMs`), so that the HTTP server can close and the process exit: its
 * client gets a JSON-RPC error for its request (a 503 answer, or the last event of an SSE
 * answer already under way) instead of a connection reset, and its call is aborted
 * (`ctx.signal`) as if the client had gone. Whatever the call answers later is dropped.
 */
export function cutOffAtShutdown(
  exchange: HttpExchange,
  gone: ClientGone,
  shutdownTimeoutMs: number,
): void {
  const { response } = exchange;
  if (response.writableEnded || response.destroyed) return;
  const error = {
    jsonrpc: '2.0',
    id: requestIdOf(exchange),
    error: {
      code: SERVER_ERROR,
      message:
        `Service Unavailable: the MCP server shut down before this request finished; it was ` +
        `stopped after ${shutdownTimeoutMs} ms (the http.shutdownTimeoutMs option of ` +
        `McpModule). Retry it on another instance or later.`,
    },
  };
  const text = JSON.stringify(error);
  if (response.headersSent) {
    // Sent and not ended: an SSE answer under way (a JSON answer is written and ended at
    // once), whose last event the error is. (Its head was written whole, with `writeHead`,
    // so `getHeader()` cannot tell its type.)
    response.write(messageFrame(text));
  } else {
    const body = Buffer.from(text);
    response.writeHead(503, {
      'content-type': 'application/json',
      'content-length': body.byteLength,
      connection: 'close',
      'retry-after': '1',
    });
    response.end(body);
  }
  // The call's signal aborts; an SSE answer's writer stops reading and ends the response.
  gone.abort();
}
