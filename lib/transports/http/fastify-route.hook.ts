import { isJsonContentType } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { contentCodingOf, inflate, InflationError } from './content-encoding.inflater.js';
import {
  bodyDeadline,
  BodyTimeoutError,
  checkJsonBody,
  discardRestOfBody,
  inflationRefusal,
  type JsonBodyLimits,
} from './json-body.reader.js';
import { httpErrors } from './json-rpc-error.response.js';

/**
 * Fastify's route config key (`@RouteConfig()` of `@nestjs/platform-fastify`, whose
 * `FASTIFY_ROUTE_CONFIG_METADATA` this is) that marks the MCP endpoint's routes; its value
 * is the registration's controller class, so each `McpModule` registration finds its own.
 */
export const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';
export const MCP_ENDPOINT_ROUTE = 'nestjsMcpEndpoint';

type PreParsingHook = (
  request: object,
  reply: unknown,
  payload: NodeJS.ReadableStream,
  done: (error: Error | null, payload?: NodeJS.ReadableStream) => void,
) => void;

interface FastifyRouteOptions {
  config?: Record<string, unknown>;
  bodyLimit?: number;
  preParsing?: PreParsingHook | PreParsingHook[];
  errorHandler?: (
    this: unknown,
    error: FastifyError,
    request: unknown,
    reply: FastifyReply,
  ) => unknown;
}
interface FastifyError extends Error {
  code?: string;
  statusCode?: number;
}
interface FastifyReply {
  code(status: number): FastifyReply;
  headers(headers: Record<string, string>): FastifyReply;
  removeHeader(name: string): FastifyReply;
  send(payload: string): FastifyReply;
}

/**
 * Keeps the bytes of a body on their way to Fastify's parser. Fastify 5 answers any JSON
 * it cannot take (a syntax error, or a `__proto__` key refused by secure-json-parse) with
 * one generic error, so the endpoint reads the kept text again to say what is wrong.
 * Fastify stops reading at the route's `bodyLimit`, so at most that much is kept.
 */
class BodyRecorder extends Transform {
  readonly chunks: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.chunks.push(chunk);
    callback(null, chunk);
  }
}

const recorders = new WeakMap<object, BodyRecorder>();

const record: PreParsingHook = (request, _reply, payload, done) => {
  const recorder = new BodyRecorder();
  recorders.set(request, recorder);
  payload.on('error', (error) => recorder.destroy(error));
  // What Fastify compares with `Content-Length` and `bodyLimit`: the bytes received.
  const encoded = payload as { receivedEncodedLength?: number };
  if (encoded.receivedEncodedLength !== undefined) {
    Object.defineProperty(recorder, 'receivedEncodedLength', {
      get: () => encoded.receivedEncodedLength,
    });
  }
  done(null, payload.pipe(recorder));
};

/** A body in a coding the endpoint cannot inflate: 415, unread (the error handler answers). */
class UnsupportedEncodingError extends Error {
  readonly statusCode = 415;
}

/**
 * Inflates a compressed body on its way to Fastify's parser, which then counts the inflated
 * bytes against `bodyLimit` (Fastify does not inflate: `Content-Encoding` would reach the
 * JSON parser as it came). The limits are the endpoint's (`content-encoding.inflater.ts`).
 */
function inflating(maxBodyBytes: number): PreParsingHook {
  return (request, _reply, payload, done) => {
    const { headers } = request as { headers: IncomingMessage['headers'] };
    const coding = contentCodingOf(headers);
    // Another media type is refused by the parser (415), as on Express, before any inflation.
    if (coding === undefined || !isJsonContentType(headers['content-type'])) {
      return done(null, payload);
    }
    if (coding === false) return done(new UnsupportedEncodingError('unsupported coding'));
    done(null, inflate(payload, coding, maxBodyBytes));
  };
}

/**
 * Fails a body not in after `http.bodyTimeoutMs` with a {@link BodyTimeoutError}, which
 * ends Fastify's reading of it (the error handler answers 408 and closes the connection).
 * Fastify has no such bound of its own for a route: its `requestTimeout` is the whole
 * server's, and a route's `handlerTimeout` would also end the calls and streams that last.
 */
function deadline(timeoutMs: number | undefined): PreParsingHook {
  return (request, reply, payload, done) => {
    const { raw } = request as { raw: IncomingMessage };
    // Fastify reads no body for these (a 2025 session's GET stream lasts as long as it may).
    if (raw.method === 'GET' || raw.method === 'HEAD') return done(null, payload);
    const timer = bodyDeadline(raw, timeoutMs, (error) => {
      // Only a body Fastify is still reading fails (an error no one listens to would be
      // thrown); nothing more is read, and the answer closes the connection.
      if (payload.listenerCount('error') === 0) return;
      raw.unpipe();
      raw.pause();
      (payload as Readable).destroy(error);
    });
    if (timer) {
      const clear = () => clearTimeout(timer);
      payload.once('end', clear);
      payload.once('close', clear);
      // Answered before the body was read (a refusal): not waited for any longer.
      (reply as { raw: ServerResponse }).raw.once('close', clear);
    }
    done(null, payload);
  };
}

/**
 * On Fastify, the content type parser runs before the route handler; it counts bytes
 * against the route's `bodyLimit` while reading and stops there. So the endpoint keeps
 * Fastify's parser and, through an `onRoute` hook limited to its own routes, sets the
 * route's `bodyLimit` to `http.maxBodyBytes`, keeps the body's bytes (`BodyRecorder`),
 * bounds the time the body takes (`http.bodyTimeoutMs`) and answers the parser's refusals as JSON-RPC errors (after a 413, the rest of the body is
 * dropped as it arrives, as on Express); any other error goes on to the app's error handler.
 */
export function createFastifyRouteHook(routeMarker: object, limits: JsonBodyLimits) {
  return function mcpRouteOptions(route: FastifyRouteOptions): void {
    if (route.config?.[MCP_ENDPOINT_ROUTE] !== routeMarker) return;
    route.bodyLimit = limits.maxBodyBytes;
    route.preParsing = [route.preParsing ?? []]
      .flat()
      .concat(inflating(limits.maxBodyBytes), record, deadline(limits.bodyTimeoutMs));
    const appHandler = route.errorHandler;
    route.errorHandler = async function mcpBodyErrors(error, request, reply) {
      const answer = bodyErrorAnswer(error, request as { headers: Record<string, string> }, limits);
      if (!answer) {
        if (appHandler) return appHandler.call(this, error, request, reply);
        throw error;
      }
      if (answer.status === 413 || error instanceof InflationError) {
        // Fastify marks a refused body `connection: close`, and Node would then close the
        // connection while the body still arrives: a reset the client may see instead of
        // the 413. The rest is read and dropped instead (see discardRestOfBody).
        reply.removeHeader('connection');
        discardRestOfBody((request as { raw: IncomingMessage }).raw);
      }
      return reply
        .code(answer.status)
        .headers(Object.fromEntries(answer.headers))
        .send(await answer.text());
    };
  };
}

/** What is wrong with a JSON body Fastify refused, from the bytes it was given. */
function invalidJsonAnswer(request: object, maxJsonDepth: number): Response {
  const chunks = recorders.get(request)?.chunks ?? [];
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return httpErrors.parseError((error as Error).message);
  }
  const checked = checkJsonBody(value, maxJsonDepth);
  return checked.ok ? httpErrors.parseError('the JSON parser refused it') : checked.answer;
}

function bodyErrorAnswer(
  error: FastifyError,
  request: { headers: Record<string, string | undefined> },
  { maxBodyBytes, maxJsonDepth }: JsonBodyLimits,
): Response | undefined {
  if (error instanceof InflationError) return inflationRefusal(error, maxBodyBytes);
  if (error instanceof BodyTimeoutError) return httpErrors.bodyTimeout(error.timeoutMs);
  if (error instanceof UnsupportedEncodingError) {
    return httpErrors.unsupportedEncoding(String(request.headers['content-encoding']));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return httpErrors.tooLarge(maxBodyBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return httpErrors.unsupportedMediaType(request.headers['content-type']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return httpErrors.parseError('the body is empty');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return httpErrors.parseError('the body does not match its Content-Length');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJsonAnswer(request, maxJsonDepth);
  }
  return undefined;
}
