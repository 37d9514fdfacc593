import type { HttpServer } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cardUnservedHostMessage } from '../../messages/server-card.messages.js';
import { normalizePath } from '../../oauth/protected-resource-metadata.js';
import {
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  aiCatalog,
  DISCOVERY_RESPONSE_HEADERS,
  SERVER_CARD_MEDIA_TYPE,
} from './server-card.js';
import { pathnameOf, platformOf, servedOnPlatform } from './platform-documents.js';
import type { CardRequest, ServerCardSource } from './server-card.source.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** What a request of the card routes is, on either platform. */
type DiscoveryRequest = CardRequest & { readonly method?: string };

/** The card sources of each HTTP platform instance (one app, one instance). */
const sourcesByPlatform = new WeakMap<object, Set<ServerCardSource>>();

/**
 * A strong entity tag of a representation: a hash of its bytes, so that any change of the
 * document (a capability, the URL, an option) changes it. The draft leaves its form open.
 */
export const entityTagOf = (body: string): string =>
  `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * Whether `If-None-Match` names the current tag: RFC 9110 §13.1.2, a weak comparison
 * (`W/` ignored), `*` matching any current representation.
 */
export function noneMatch(header: string | string[] | undefined, tag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return false;
  return value.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === tag;
  });
}

/** A document with its tag: 304 when the client has it, 200 with it otherwise. */
function documentAnswer(request: DiscoveryRequest, mediaType: string, document: unknown): Answer {
  const body = JSON.stringify(document);
  const etag = entityTagOf(body);
  const headers = { ...DISCOVERY_RESPONSE_HEADERS, etag };
  if (noneMatch(request.headers['if-none-match'], etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'content-type': mediaType }, body };
}

const notFound = (): Answer => ({
  status: 404,
  headers: {
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
    'content-type': 'application/json',
  },
  body: JSON.stringify({ error: 'not_found', error_description: cardUnservedHostMessage() }),
});

/** The answer to a request for `pathname`, or `undefined` when it is not for a card. */
function answer(
  sources: ReadonlySet<ServerCardSource>,
  request: DiscoveryRequest,
  pathname: string,
): Answer | undefined {
  const path = normalizePath(pathname).toLowerCase();
  const catalog = path === AI_CATALOG_PATH;
  const listed = catalog
    ? [...sources].filter((source) => source.discovery.aiCatalog !== false)
    : [...sources].filter((source) => source.cardPath() === path);
  if (listed.length === 0) return undefined;
  if (request.method === 'OPTIONS') {
    // The CORS preflight of a GET with `If-None-Match`.
    return { status: 204, headers: { ...DISCOVERY_RESPONSE_HEADERS } };
  }
  if (!catalog) {
    const card = listed[0]!.cardFor(request);
    return card ? documentAnswer(request, SERVER_CARD_MEDIA_TYPE, card) : notFound();
  }
  const cards = listed.flatMap((source) => {
    const url = source.cardUrlFor(request);
    return url === undefined ? [] : [{ name: source.discovery.name, url }];
  });
  return cards.length > 0
    ? documentAnswer(request, AI_CATALOG_MEDIA_TYPE, aiCatalog(cards))
    : notFound();
}

const DISCOVERY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface FastifyInstanceLike {
  addHook(
    name: 'onRequest',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, done: () => void) => void,
  ): unknown;
}
interface FastifyRequestLike extends DiscoveryRequest {
  readonly url: string;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(headers: Record<string, string>): FastifyReplyLike;
  send(body?: Buffer): unknown;
}

/**
 * Serves the Server Card of each server with `discovery` at `<endpoint>/server-card`, and
 * the AI Catalog of those listed at `/.well-known/ai-catalog.json`: on the platform
 * directly (an Express middleware, a Fastify `onRequest` hook), not as Nest routes, so that
 * neither the endpoint's guards nor the app's global guards stand before a document the
 * draft makes public for discovery before any connection. Read once per app; each server
 * adds its source. The card's path follows the global prefix, read at each request.
 */
export function serveServerCards(adapter: HttpServer, source: ServerCardSource): void {
  servedOnPlatform(sourcesByPlatform, adapter, source, (sources) =>
    installCardRoutes(adapter, sources),
  );
}

function installCardRoutes(adapter: HttpServer, sources: ReadonlySet<ServerCardSource>): void {
  if (platformOf(adapter) === 'fastify') {
    (adapter.getInstance() as FastifyInstanceLike).addHook('onRequest', (request, reply, done) => {
      const found = DISCOVERY_METHODS.has(request.method ?? '')
        ? answer(sources, request, pathnameOf(request.url))
        : undefined;
      if (!found) return done();
      // Bytes, so that Fastify adds no charset: JSON media types define none (RFC 8259 §11).
      const body = request.method === 'HEAD' || found.body === undefined ? undefined : found.body;
      reply
        .code(found.status)
        .headers(found.headers)
        .send(body === undefined ? undefined : Buffer.from(body));
    });
    return;
  }
  adapter.use(
    (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
      const found = DISCOVERY_METHODS.has(request.method ?? '')
        ? answer(sources, request as DiscoveryRequest, pathnameOf(request.url))
        : undefined;
      if (!found) return next();
      response
        .writeHead(found.status, found.headers)
        .end(request.method === 'HEAD' ? undefined : found.body);
    },
  );
}
