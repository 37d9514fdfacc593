import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpExchange } from './http-exchange.factory.js';
import { readJsonBody, type JsonBodyLimits, type JsonBodyOutcome } from './json-body.reader.js';
import { writeWebResponse } from './web-response.writer.js';

/** Where the Express middleware leaves the outcome of reading an MCP request body. */
export const MCP_BODY_OUTCOME = Symbol('nestjs-mcp:body-outcome');

export type RequestWithBodyOutcome = IncomingMessage & {
  body?: unknown;
  [MCP_BODY_OUTCOME]?: JsonBodyOutcome;
};

/**
 * The body of a POST as whoever read it first left it: the outcome of the endpoint's Express
 * middleware, or the value Fastify's parser or the app's own parser made; `undefined` when no
 * one has read it yet (the endpoint reads it then).
 */
export function bodyReadBefore(
  exchange: HttpExchange,
): JsonBodyOutcome | { readonly value: unknown } | undefined {
  const request = exchange.request as RequestWithBodyOutcome;
  return (
    request[MCP_BODY_OUTCOME] ??
    exchange.parsedBody ??
    (request.body !== undefined ? { value: request.body } : undefined)
  );
}

/** The refusals that leave the body unread or half read. */
const UNREAD_BODY_STATUSES = new Set([408, 413, 415]);

/**
 * On Express, Nest's `json()` body parser is an app-level middleware that runs before any
 * route, with its own 100 KB limit and its own error answers. This middleware is added
 * ahead of it (when the HTTP adapter is set, before `app.init()` registers the parsers)
 * and reads the body of a POST to the MCP endpoint itself, so the endpoint's limit, media
 * type rule and error answers apply. Once it has read the whole body, `body-parser` sees
 * a finished request and skips it.
 *
 * - A refusal that leaves the body unread (415) or half read (413, or 408 for a body not
 *   in after `http.bodyTimeoutMs`) is answered here: the parsers must not read on. (The
 *   rest of a 413's body is dropped as it arrives, so that the client can read the answer:
 *   see `discardRestOfBody`; a 408 closes the connection instead.)
 * - Otherwise the outcome waits on the request, and the endpoint answers after the route's
 *   guards, like any other MCP error. A parsed body is also `req.body`, as the app's
 *   middleware and guards expect.
 */
export function createExpressBodyMiddleware(
  isEndpointRequest: (request: IncomingMessage) => boolean,
  limits: JsonBodyLimits,
) {
  return function mcpBodyReader(
    request: RequestWithBodyOutcome,
    response: ServerResponse,
    next: (error?: unknown) => void,
  ): void {
    if (request.method !== 'POST' || !isEndpointRequest(request)) return next();
    readJsonBody(request, limits).then((outcome) => {
      if (outcome.ok) {
        request.body = outcome.body;
      } else if (UNREAD_BODY_STATUSES.has(outcome.answer.status)) {
        void writeWebResponse(outcome.answer, response, new AbortController().signal);
        return;
      }
      request[MCP_BODY_OUTCOME] = outcome;
      next();
    }, next);
  };
}

/**
 * Whether a request is for the endpoint at `routePath()` (global prefix included), the way
 * Express matches routes by default: case-insensitive, trailing slash optional. A request
 * this misses (a route under URI versioning, say) is still served: the platform's parser
 * reads it, with the platform's limit.
 */
export function endpointPathMatcher(routePath: () => string) {
  let path: string | undefined;
  return (request: IncomingMessage): boolean => {
    path ??= normalize(routePath());
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    return normalize(query === -1 ? url : url.slice(0, query)) === path;
  };
}

const normalize = (path: string) => ('/' + path.split('/').filter(Boolean).join('/')).toLowerCase();
