import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpExchange } from './streamable-http.endpoint.js';

/** The parts of a Fastify request and reply the endpoint uses (no import of Fastify). */
interface FastifyRequestLike {
  raw: IncomingMessage;
  body?: unknown;
}
interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
}

const isFastifyReply = (response: object): response is FastifyReplyLike =>
  typeof (response as Partial<FastifyReplyLike>).hijack === 'function' && 'raw' in response;

/**
 * The endpoint's view of a request from the route's `@Req()`/`@Res()`. On Express these
 * are the Node request and response themselves. On Fastify they wrap them (`.raw`), the
 * body is already parsed, and the reply is hijacked: the endpoint writes the Node response
 * itself, so Fastify must neither answer nor complain about a handler that sent nothing.
 */
export function toHttpExchange(request: object, response: object): HttpExchange {
  if (isFastifyReply(response)) {
    response.hijack();
    const fastifyRequest = request as FastifyRequestLike;
    return {
      request: fastifyRequest.raw,
      response: response.raw,
      platformRequest: request,
      platformResponse: response,
      parsedBody: { value: fastifyRequest.body },
    };
  }
  return {
    request: request as IncomingMessage,
    response: response as ServerResponse,
    platformRequest: request,
    platformResponse: response,
  };
}
