import type { HttpServer } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizePath } from '../oauth/protected-resource-metadata.js';
import { pathnameOf, platformOf, servedOnPlatform } from '../transports/http/platform-documents.js';
import { noneMatch } from '../transports/http/server-card.routes.js';
import { explorerAssets, type ExplorerAssets } from './explorer-assets.js';
import { explorerPageCsp, viewDomainsOf, viewSandboxCsp } from './explorer-csp.js';
import { clientMetadataDocument, explorerShell, viewSandboxPage } from './explorer-page.js';
import type { ExplorerRequest, ExplorerSource } from './explorer.source.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What every answer of the explorer carries: its media type is the one it says. */
const NOSNIFF = { 'x-content-type-options': 'nosniff' };

/** The pages: never cached (the configuration follows the server), never leaking the URL. */
const page = (csp: string, body: string): Answer => ({
  status: 200,
  headers: {
    ...NOSNIFF,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': csp,
  },
  body,
});

const json = (status: number, value: unknown): Answer => ({
  status,
  headers: { ...NOSNIFF, 'content-type': 'application/json', 'cache-control': 'no-cache' },
  body: JSON.stringify(value),
});

const notFound = (): Answer => ({
  status: 404,
  headers: { ...NOSNIFF, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: 'Not found',
});

/** The explorers of each HTTP platform instance (one app, one instance). */
const sourcesByPlatform = new WeakMap<object, Set<ExplorerSource>>();

/**
 * A built file of the page, revalidated by its tag. Readable from any origin: a view's
 * sandbox has an opaque origin, and fetches the sandbox's module script with CORS.
 */
function assetAnswer(assets: ExplorerAssets, name: string, request: ExplorerRequest): Answer {
  const asset = assets.get(name);
  if (!asset) return notFound();
  const headers = {
    ...NOSNIFF,
    'cache-control': 'no-cache',
    etag: asset.etag,
    'access-control-allow-origin': '*',
  };
  if (noneMatch(request.headers['if-none-match'], asset.etag)) return { status: 304, headers };
  return {
    status: 200,
    headers: { ...headers, 'content-type': asset.mediaType },
    body: asset.body,
  };
}

/**
 * The answer to a GET or HEAD of one of the explorers' routes; `undefined`, at once, for
 * any other request (the endpoint's among them, which this must not delay).
 */
function answer(
  sources: ReadonlySet<ExplorerSource>,
  request: ExplorerRequest,
  assets: ExplorerAssets,
): Answer | Promise<Answer> | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const pathname = normalizePath(pathnameOf(request.url));
  const source = [...sources].find(
    (candidate) => pathname === candidate.path() || pathname.startsWith(`${candidate.path()}/`),
  );
  if (!source) return undefined;
  const route = pathname.slice(source.path().length);
  if (route === '' || route === '/oauth/callback') {
    const shell = explorerShell(
      source.title,
      source.base(),
      source.configFor(request, [...sources]),
    );
    return source.connectOrigins(request).then((origins) => page(explorerPageCsp(origins), shell));
  }
  if (route === '/view-sandbox') {
    const query = new URLSearchParams(request.url?.split('?')[1] ?? '').get('csp');
    return page(viewSandboxCsp(viewDomainsOf(query)), viewSandboxPage(source.base()));
  }
  if (route === '/oauth/client-metadata.json') {
    const clientId = source.urlFor(request, route);
    const redirectUri = source.urlFor(request, '/oauth/callback');
    if (clientId === undefined || redirectUri === undefined) {
      return json(404, {
        error: 'not_found',
        error_description:
          'This host is not one this MCP server answers to, so the explorer cannot name its ' +
          "client: the app sets http.publicUrl, or lists the host in the McpModule's http.allowedHosts.",
      });
    }
    return json(200, clientMetadataDocument(clientId, redirectUri));
  }
  const asset = /^\/assets\/([^/]+)$/.exec(route);
  return asset ? assetAnswer(assets, asset[1]!, request) : notFound();
}

/**
 * Serves each server's explorer (docs/explorer.md) at its path: the page, its built files,
 * its OAuth client document and the sandbox of MCP Apps views. On the platform directly (an
 * Express middleware, a Fastify `onRequest` hook), as the Server Card is: the page is
 * public like the card, and everything it does goes through the endpoint, whose guards
 * stand before each request. Read once per app; each server adds its explorer. Its path
 * follows the global prefix, read at each request.
 */
export function serveExplorer(
  adapter: HttpServer,
  source: ExplorerSource,
  assets: ExplorerAssets = explorerAssets,
): void {
  servedOnPlatform(sourcesByPlatform, adapter, source, (sources) =>
    installExplorerRoutes(adapter, sources, assets),
  );
}

interface FastifyInstanceLike {
  addHook(
    name: 'onRequest',
    hook: (
      request: ExplorerRequest,
      reply: FastifyReplyLike,
      done: (error?: unknown) => void,
    ) => void,
  ): unknown;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(headers: Record<string, string>): FastifyReplyLike;
  send(body?: string | Buffer): FastifyReplyLike;
}

function installExplorerRoutes(
  adapter: HttpServer,
  sources: ReadonlySet<ExplorerSource>,
  assets: ExplorerAssets,
): void {
  if (platformOf(adapter) === 'fastify') {
    (adapter.getInstance() as FastifyInstanceLike).addHook('onRequest', (request, reply, done) => {
      const found = answer(sources, request, assets);
      if (found === undefined) return done();
      Promise.resolve(found).then((served) => {
        const body = request.method === 'HEAD' ? undefined : served.body;
        reply.code(served.status).headers(served.headers).send(body);
      }, done);
    });
    return;
  }
  adapter.use(
    (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
      const found = answer(sources, request as ExplorerRequest, assets);
      if (found === undefined) return next();
      Promise.resolve(found).then((served) => {
        response
          .writeHead(served.status, served.headers)
          .end(request.method === 'HEAD' ? undefined : served.body);
      }, next);
    },
  );
}
