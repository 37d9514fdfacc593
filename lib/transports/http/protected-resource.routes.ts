import type { HttpServer } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import {
  normalizePath,
  PROTECTED_RESOURCE_WELL_KNOWN,
  protectedResourceMetadataPath,
} from '../../oauth/protected-resource-metadata.js';
import { pathnameOf, platformOf, servedOnPlatform } from './platform-documents.js';

/** One server whose metadata the app serves, and the paths of its resource. */
export interface ProtectedResourceEntry {
  readonly resourceServer: OAuthResourceServer;
  /** The endpoint's route (global prefix included) and, if set, the path of `auth.resource`. */
  readonly resourcePaths: () => string[];
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

const CORS = { 'access-control-allow-origin': '*' };

const json = (status: number, value: unknown): Answer => ({
  status,
  headers: { ...CORS, 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** The servers with `auth` of each HTTP platform instance (one app, one instance). */
const entriesByPlatform = new WeakMap<object, Set<ProtectedResourceEntry>>();

/** The answer to a request for `pathname`, or `undefined` when no server has it. */
function answer(
  entries: ReadonlySet<ProtectedResourceEntry>,
  method: string | undefined,
  pathname: string,
  request: object,
): Answer | undefined {
  const path = normalizePath(pathname).toLowerCase();
  let entry: ProtectedResourceEntry | undefined;
  if (path === PROTECTED_RESOURCE_WELL_KNOWN) {
    // The root document names a resource only when the app has one protected server.
    if (entries.size === 1) [entry] = entries;
    else {
      const where = [...entries].map((candidate) =>
        protectedResourceMetadataPath(candidate.resourcePaths()[0]),
      );
      return json(404, {
        error: 'not_found',
        error_description: `This app has several MCP servers; their metadata is at ${where.join(', ')}`,
      });
    }
  } else {
    entry = [...entries].find((candidate) =>
      candidate
        .resourcePaths()
        .some((resourcePath) => protectedResourceMetadataPath(resourcePath).toLowerCase() === path),
    );
  }
  if (!entry) return undefined;
  if (method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': '*',
      },
    };
  }
  // A host the resource cannot be derived for (outside http.allowedHosts) names no resource.
  if (entry.resourceServer.resourceOf(request) === undefined) {
    return json(404, {
      error: 'not_found',
      error_description: 'This host does not serve the MCP server this document describes.',
    });
  }
  return json(200, entry.resourceServer.metadataDocument(request));
}

interface FastifyInstanceLike {
  route(options: {
    method: string[];
    url: string;
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => unknown;
  }): unknown;
}
interface FastifyRequestLike {
  method: string;
  url: string;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(headers: Record<string, string>): FastifyReplyLike;
  send(body?: string): unknown;
  callNotFound(): unknown;
}

/**
 * Serves the Protected Resource Metadata (RFC 9728) of a server with `auth` at the host
 * root, whatever the app's global prefix: `/.well-known/oauth-protected-resource/<path>`
 * (the endpoint's path, global prefix included), and at `/.well-known/oauth-protected-resource`
 * itself when the app has one such server. Registered on the platform directly (an Express
 * middleware, Fastify routes) when the HTTP adapter is known, once per app; each server
 * adds its entry.
 */
export function serveProtectedResourceMetadata(
  adapter: HttpServer,
  entry: ProtectedResourceEntry,
): void {
  servedOnPlatform(entriesByPlatform, adapter, entry, (entries) =>
    installMetadataRoutes(adapter, entries),
  );
}

function installMetadataRoutes(
  adapter: HttpServer,
  entries: ReadonlySet<ProtectedResourceEntry>,
): void {
  if (platformOf(adapter) === 'fastify') {
    const handler = (request: FastifyRequestLike, reply: FastifyReplyLike) => {
      const found = answer(entries, request.method, pathnameOf(request.url), request);
      if (!found) return reply.callNotFound();
      return reply.code(found.status).headers(found.headers).send(found.body);
    };
    const fastify = adapter.getInstance() as FastifyInstanceLike;
    for (const url of [PROTECTED_RESOURCE_WELL_KNOWN, `${PROTECTED_RESOURCE_WELL_KNOWN}/*`]) {
      fastify.route({ method: ['GET', 'OPTIONS'], url, handler });
    }
    return;
  }
  adapter.use(
    (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
      const { method, url = '/' } = request;
      const served =
        (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') &&
        url.toLowerCase().startsWith(PROTECTED_RESOURCE_WELL_KNOWN)
          ? answer(entries, method, pathnameOf(url), request)
          : undefined;
      if (!served) return next();
      const body = method === 'HEAD' ? undefined : served.body;
      response.writeHead(served.status, served.headers).end(body);
    },
  );
}
