import type { HttpServer } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { createExpressBodyMiddleware } from './express-body.middleware.js';
import { createFastifyRouteHook } from './fastify-route.hook.js';
import { platformOf } from './platform-documents.js';
import type { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

interface FastifyInstanceLike {
  addHook(name: 'onRoute', hook: (route: object) => void): unknown;
}

/** How the platform tells the endpoint's requests (Express) and routes (Fastify) apart. */
export interface EndpointRoute {
  /** Whether a request is for the endpoint's path. */
  readonly isEndpointRequest: (request: IncomingMessage) => boolean;
  /** What the endpoint's routes carry in their Fastify route config (its controller class). */
  readonly routeMarker: object;
}

/**
 * Gives the endpoint the reading of its own request bodies on the app's platform. Called
 * as soon as the HTTP adapter is known, which is before `app.init()` registers the body
 * parsers and the routes; other platforms keep their own parsing, and the endpoint still
 * checks media type, depth and keys of what they parsed.
 */
export function attachToPlatform(
  adapter: HttpServer,
  endpoint: StreamableHttpEndpoint,
  { isEndpointRequest, routeMarker }: EndpointRoute,
): void {
  const type = platformOf(adapter);
  if (type === 'express') {
    adapter.use(createExpressBodyMiddleware(isEndpointRequest, endpoint.limits));
  } else if (type === 'fastify') {
    (adapter.getInstance() as FastifyInstanceLike).addHook(
      'onRoute',
      createFastifyRouteHook(routeMarker, endpoint.limits) as (route: object) => void,
    );
  }
}
