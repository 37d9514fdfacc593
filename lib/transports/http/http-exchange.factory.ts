import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One HTTP request as the endpoint sees it, whatever the platform: the Node request and
 * response it reads and writes, and the platform's own objects (Express `req`/`res`,
 * Fastify `request`/`reply`) that guards, `REQUEST` and tools receive.
 */
export interface HttpExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly platformRequest: object;
  readonly platformResponse: object;
  /** The body the platform already parsed for this route (Fastify), if any. */
  readonly parsedBody?: { value: unknown };
}

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
