/**
 * The explorer's routes over HTTP (issue 30, docs/explorer.md), on Express and Fastify: the
 * HTML shell with its policy and its configuration, the built files, the OAuth client
 * document, the sandbox of MCP Apps views, under a global prefix and with several servers,
 * and nothing at all in production unless the options ask for it.
 */
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Test } from '@nestjs/testing';
import { McpModule, McpScopes, McpTool, type McpModuleOptions } from 'nestjs-mcp';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { captureLogs, type CapturedLogs } from '../support/captured-logs.js';
import {
  ADAPTERS,
  startApp,
  type HttpAdapterName,
  type RunningApp,
} from '../support/fixture-app.js';
import {
  configOf,
  cspOf,
  PAGE_HEADERS,
  pageCsp,
  startMetadataServer,
  type MetadataServer,
} from './explorer-wire.js';

const BUILT_ASSETS = fileURLToPath(new URL('../../dist/explorer-ui/assets/', import.meta.url));

@Injectable()
class ShopTools {
  @McpTool({ description: 'Finds products.' })
  @McpScopes('shop.read')
  find(): string {
    return 'found';
  }
}

const server = (options: Partial<McpModuleOptions> & { name: string }): DynamicModule =>
  McpModule.forRoot({ version: '1.0.0', ...options });

async function start(
  adapter: HttpAdapterName,
  imports: DynamicModule[],
  extra: { globalPrefix?: string; logs?: CapturedLogs } = {},
): Promise<RunningApp> {
  @Module({ imports, providers: [ShopTools] })
  class ExplorerAppModule {}
  const builder = Test.createTestingModule({ imports: [ExplorerAppModule] });
  if (extra.logs) builder.setLogger(extra.logs);
  return startApp(await builder.compile(), {
    adapter,
    globalPrefix: extra.globalPrefix,
    logger: extra.logs,
  });
}

/** Every route of an explorer at `path`. */
const routesOf = (path: string) => [
  path,
  `${path}/`,
  `${path}/oauth/callback`,
  `${path}/oauth/client-metadata.json`,
  `${path}/view-sandbox`,
  `${path}/assets/explorer.js`,
  `${path}/assets/explorer.css`,
  `${path}/assets/sandbox.js`,
];

describe.each(ADAPTERS)('the explorer on %s', (adapter) => {
  let running: RunningApp;
  const logs = captureLogs();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    running = await start(
      adapter,
      [server({ name: 'shop', explorer: { title: 'Shop </script><!-- & "tools"' } })],
      { logs },
    );
  });

  afterAll(() => running?.close());

  it('logs where it is once the app is up', () => {
    expect(logs.messages('log', 'McpExplorer')).toEqual(['MCP explorer at /mcp/explorer']);
  });

  it('serves the shell at its path, with a slash and as the OAuth callback, under a strict policy', async () => {
    const origin = running.url.origin;
    for (const path of ['/mcp/explorer', '/mcp/explorer/', '/mcp/explorer/oauth/callback?code=x']) {
      const res = await http().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers, path).toMatchObject({
        ...PAGE_HEADERS,
        'content-security-policy': pageCsp(),
      });
      const config = configOf(res.text);
      expect(config, path).toEqual({
        title: 'Shop </script><!-- & "tools"',
        endpoint: '/mcp',
        servers: [
          {
            name: 'shop',
            title: 'Shop </script><!-- & "tools"',
            endpoint: '/mcp',
            explorer: '/mcp/explorer',
          },
        ],
        locales: [],
        sandbox: '/mcp/explorer/view-sandbox',
      });
      expect(res.text, path).not.toContain(origin);
    }
  });

  it('writes the shell of the contract, the title escaped in the HTML and in the JSON', async () => {
    const res = await http().get('/mcp/explorer');
    const title = 'Shop &lt;/script&gt;&lt;!-- &amp; &quot;tools&quot;';
    const json =
      '{"title":"Shop \\u003c/script>\\u003c!-- & \\"tools\\"","endpoint":"/mcp","servers":' +
      '[{"name":"shop","title":"Shop \\u003c/script>\\u003c!-- & \\"tools\\"","endpoint":"/mcp",' +
      '"explorer":"/mcp/explorer"}],"locales":[],"sandbox":"/mcp/explorer/view-sandbox"}';
    expect(res.text).toBe(
      [
        '<!doctype html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${title} · MCP explorer</title>`,
        '<link rel="stylesheet" href="/mcp/explorer/assets/explorer.css">',
        `<script type="application/json" id="mcp-explorer-config">${json}</script>`,
        '<script type="module" src="/mcp/explorer/assets/explorer.js"></script>',
        '</head><body><div id="app"></div></body></html>',
      ].join('\n'),
    );
    // One script element closes the config: the title's `</script>` closed none.
    expect(res.text.match(/<\/script>/g)).toHaveLength(2);
  });

  it('answers HEAD like GET without a body, and leaves other methods to the app (404)', async () => {
    const head = await http().head('/mcp/explorer');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.text ?? '').toBe('');
    for (const path of ['/mcp/explorer', '/mcp/explorer/assets/explorer.js']) {
      expect((await http().post(path).send({})).status, path).toBe(404);
      expect((await http().put(path).send({})).status, path).toBe(404);
      expect((await http().delete(path)).status, path).toBe(404);
    }
  });

  it('serves the built files with their media types, an entity tag and no-cache', async () => {
    for (const [file, type] of [
      ['explorer.js', 'text/javascript; charset=utf-8'],
      ['explorer.css', 'text/css; charset=utf-8'],
      ['sandbox.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await http().get(`/mcp/explorer/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers, file).toMatchObject({
        'content-type': type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        // The sandbox of a view has an opaque origin: its module script is fetched with CORS.
        'access-control-allow-origin': '*',
      });
      expect(res.headers.etag, file).toMatch(/^"[\w-]{43}"$/);
      // The file npm run build wrote, byte for byte.
      expect(res.text, file).toBe(readFileSync(join(BUILT_ASSETS, file!), 'utf8'));
      const again = await http()
        .get(`/mcp/explorer/assets/${file}`)
        .set('If-None-Match', res.headers.etag!);
      expect(again.status, file).toBe(304);
      const head = await http().head(`/mcp/explorer/assets/${file}`);
      expect(head.status, file).toBe(200);
      expect(head.headers.etag, file).toBe(res.headers.etag);
    }
  });

  it('serves no other file: unknown names and every way out of the directory answer 404', async () => {
    for (const path of [
      '/mcp/explorer/assets/missing.js',
      '/mcp/explorer/assets/',
      '/mcp/explorer/assets/..%2f..%2f..%2fpackage.json',
      '/mcp/explorer/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/mcp/explorer/assets/..%5c..%5cpackage.json',
      '/mcp/explorer/assets/explorer.js%00.css',
      '/mcp/explorer/assets/sub/explorer.js',
      '/mcp/explorer/elsewhere',
    ]) {
      const res = await http().get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('"name": "nestjs-mcp"');
      expect(res.text, path).not.toContain('mcp-explorer-config');
    }
  });

  it('serves its OAuth Client ID Metadata Document with absolute URLs of the request origin', async () => {
    const base = `${running.url.origin}/mcp/explorer`;
    const res = await http().get('/mcp/explorer/oauth/client-metadata.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      client_id: `${base}/oauth/client-metadata.json`,
      client_name: 'MCP explorer',
      redirect_uris: [`${base}/oauth/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });

  it('names no URL for a host the server does not answer to', async () => {
    const res = await http()
      .get('/mcp/explorer/oauth/client-metadata.json')
      .set('Host', 'evil.example');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('evil.example');
    expect(JSON.parse(res.text).error_description).toContain('http.allowedHosts');
  });

  it('serves the view sandbox under a policy made of the http(s) origins the view declares', async () => {
    const declared = {
      connectDomains: ['https://api.example.com', "'unsafe-eval'", '*', 'javascript:alert(1)'],
      resourceDomains: ['https://*.cdn.example.com', 'https://cdn.example.com/', 'data:', 'http:'],
      frameDomains: ['https://frames.example.com/path', 'https://ok.example.com:8443'],
      baseUriDomains: ["https://a.example.com 'unsafe-inline'"],
    };
    const res = await http().get(
      `/mcp/explorer/view-sandbox?csp=${encodeURIComponent(JSON.stringify(declared))}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(cspOf(res.headers['content-security-policy'])).toEqual({
      'default-src': ["'none'"],
      'script-src': [
        "'self'",
        "'unsafe-inline'",
        'https://*.cdn.example.com',
        'https://cdn.example.com',
      ],
      'style-src': [
        "'self'",
        "'unsafe-inline'",
        'https://*.cdn.example.com',
        'https://cdn.example.com',
      ],
      'img-src': [
        "'self'",
        'data:',
        'blob:',
        'https://*.cdn.example.com',
        'https://cdn.example.com',
      ],
      'media-src': [
        "'self'",
        'data:',
        'blob:',
        'https://*.cdn.example.com',
        'https://cdn.example.com',
      ],
      'font-src': ["'self'", 'data:', 'https://*.cdn.example.com', 'https://cdn.example.com'],
      'connect-src': ['https://api.example.com'],
      'frame-src': ['https://ok.example.com:8443'],
      'base-uri': ["'self'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'self'"],
    });
    expect(res.text).toContain('<script type="module" src="/mcp/explorer/assets/sandbox.js">');
  });

  it('lets no query add a directive to the sandbox policy', async () => {
    for (const csp of [
      JSON.stringify({ connectDomains: ["https://a.example.com; script-src 'unsafe-eval'"] }),
      JSON.stringify({ resourceDomains: ['https://a.example.com;default-src *'] }),
      JSON.stringify({ frameDomains: ['https://a.example.com\r\nX-Injected: 1'] }),
      "https://a.example.com; script-src 'unsafe-eval'",
      'not json',
      '[]',
    ]) {
      const res = await http().get(`/mcp/explorer/view-sandbox?csp=${encodeURIComponent(csp)}`);
      expect(res.status, csp).toBe(200);
      expect(res.headers['x-injected'], csp).toBeUndefined();
      const policy = cspOf(res.headers['content-security-policy']);
      expect(Object.keys(policy), csp).toHaveLength(11);
      expect(policy['connect-src'], csp).toEqual(["'none'"]);
      expect(policy['frame-src'], csp).toEqual(["'none'"]);
      expect(policy['script-src'], csp).toEqual(["'self'", "'unsafe-inline'"]);
      expect(res.headers['content-security-policy'], csp).not.toContain('unsafe-eval');
    }
  });
});

describe.each(ADAPTERS)('explorers of several servers under a global prefix, on %s', (adapter) => {
  let running: RunningApp;
  const logs = captureLogs();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    running = await start(
      adapter,
      [
        server({
          name: 'shop',
          http: { path: 'shop' },
          discovery: { name: 'com.example/shop', title: 'The shop' },
        }),
        server({
          name: 'admin',
          http: { path: 'admin/mcp' },
          explorer: { path: '/tools-explorer' },
        }),
        server({ name: 'hidden', http: { path: 'hidden' }, explorer: false }),
      ],
      { globalPrefix: 'api', logs },
    );
  });

  afterAll(() => running?.close());

  it('logs each, the prefix included', () => {
    expect(logs.messages('log', 'McpExplorer').toSorted()).toEqual([
      'MCP explorer at /api/shop/explorer',
      'MCP explorer at /api/tools-explorer',
    ]);
  });

  it('serves each at its path, listing the servers that have one', async () => {
    const servers = [
      { name: 'shop', title: 'The shop', endpoint: '/api/shop', explorer: '/api/shop/explorer' },
      {
        name: 'admin',
        title: 'admin',
        endpoint: '/api/admin/mcp',
        explorer: '/api/tools-explorer',
      },
    ];
    const shop = await http().get('/api/shop/explorer');
    expect(shop.status).toBe(200);
    expect(configOf(shop.text)).toEqual({
      title: 'The shop',
      endpoint: '/api/shop',
      servers: expect.arrayContaining(servers),
      locales: [],
      sandbox: '/api/shop/explorer/view-sandbox',
    });
    expect(configOf(shop.text).servers).toHaveLength(2);
    expect(shop.text).toContain('<title>The shop · MCP explorer</title>');
    expect(shop.text).toContain('src="/api/shop/explorer/assets/explorer.js"');

    const admin = await http().get('/api/tools-explorer/');
    expect(admin.status).toBe(200);
    expect(configOf(admin.text)).toMatchObject({
      title: 'admin',
      endpoint: '/api/admin/mcp',
      sandbox: '/api/tools-explorer/view-sandbox',
    });
    expect(admin.text).toContain('href="/api/tools-explorer/assets/explorer.css"');
    expect((await http().get('/api/tools-explorer/assets/explorer.js')).status).toBe(200);
  });

  it('serves nothing outside the prefix, at a moved default path, or for a server with explorer: false', async () => {
    for (const path of [
      ...routesOf('/shop/explorer'),
      ...routesOf('/api/admin/mcp/explorer'),
      ...routesOf('/api/hidden/explorer'),
      '/tools-explorer',
    ]) {
      const res = await http().get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('mcp-explorer-config');
    }
  });
});

describe('the explorer and NODE_ENV', () => {
  const nodeEnv = process.env.NODE_ENV;
  const logs = captureLogs();
  let running: RunningApp | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });

  it.each(ADAPTERS)(
    'is not mounted in production without an opt-in: every route answers 404 (%s)',
    async (adapter) => {
      process.env.NODE_ENV = 'production';
      running = await start(adapter, [server({ name: 'shop' })], { logs });
      const http = request(running.app.getHttpServer());
      for (const path of routesOf('/mcp/explorer')) {
        const res = await http.get(path);
        expect(res.status, path).toBe(404);
        expect(res.text, path).not.toContain('mcp-explorer-config');
        expect((await http.head(path)).status, path).toBe(404);
      }
      expect(logs.messages('log', 'McpExplorer')).toEqual([]);
    },
  );

  it.each(ADAPTERS)(
    'is served in production with explorer: true or { enabled: true } (%s)',
    async (adapter) => {
      process.env.NODE_ENV = 'production';
      running = await start(
        adapter,
        [
          server({ name: 'shop', explorer: true }),
          server({ name: 'admin', http: { path: 'admin' }, explorer: { enabled: true } }),
        ],
        { logs },
      );
      const http = request(running.app.getHttpServer());
      expect((await http.get('/mcp/explorer')).status).toBe(200);
      expect((await http.get('/admin/explorer')).status).toBe(200);
      expect((await http.get('/mcp/explorer/assets/explorer.js')).status).toBe(200);
      expect(logs.messages('log', 'McpExplorer').toSorted()).toEqual([
        'MCP explorer at /admin/explorer',
        'MCP explorer at /mcp/explorer',
      ]);
    },
  );

  it.each(ADAPTERS)(
    'is off with explorer: false or { enabled: false } out of production (%s)',
    async (adapter) => {
      process.env.NODE_ENV = 'development';
      running = await start(
        adapter,
        [
          server({ name: 'shop', explorer: false }),
          server({
            name: 'admin',
            http: { path: 'admin' },
            explorer: { enabled: false, path: '/x' },
          }),
        ],
        { logs },
      );
      const http = request(running.app.getHttpServer());
      for (const path of [...routesOf('/mcp/explorer'), ...routesOf('/admin/explorer'), '/x']) {
        expect((await http.get(path)).status, path).toBe(404);
      }
      expect(logs.messages('log', 'McpExplorer')).toEqual([]);
    },
  );
});

describe.each(ADAPTERS)('the explorer of an OAuth resource server, on %s', (adapter) => {
  let running: RunningApp;
  let authorizationServer: MetadataServer;
  const logs = captureLogs();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    // Its token and registration endpoints are on other origins than its issuer's.
    authorizationServer = await startMetadataServer({
      token_endpoint: 'https://tokens.example.com/oauth/token',
      registration_endpoint: 'https://register.example.com:8443/register',
      authorization_endpoint: 'https://login.example.com/authorize',
    });
    running = await start(
      adapter,
      [
        server({
          name: 'shop',
          http: { allowedHosts: ['127.0.0.1'] },
          auth: {
            authorizationServers: [authorizationServer.issuer, 'https://second.example.net/tenant'],
          },
        }),
      ],
      { logs },
    );
  });

  afterAll(async () => {
    await running?.close();
    await authorizationServer?.close();
  });

  it('lets the page reach the authorization servers and the endpoints it fetches, and no other', async () => {
    const res = await http().get('/mcp/explorer');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(
      pageCsp([
        new URL(authorizationServer.issuer).origin,
        'https://tokens.example.com',
        'https://register.example.com:8443',
        // Its metadata cannot be loaded (no such host): its own origin only.
        'https://second.example.net',
      ]),
    );
  });

  it('tells the page how to sign in, with absolute URLs and the scopes the server names', async () => {
    const origin = running.url.origin;
    const res = await http().get('/mcp/explorer');
    expect(configOf(res.text).auth).toEqual({
      resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
      clientMetadataUrl: `${origin}/mcp/explorer/oauth/client-metadata.json`,
      redirectUri: `${origin}/mcp/explorer/oauth/callback`,
      scopes: ['shop.read'],
    });
    // The document it names is the one served.
    const metadata = await http().get('/.well-known/oauth-protected-resource/mcp');
    expect(JSON.parse(metadata.text).resource).toBe(`${origin}/mcp`);
  });

  it('serves the page to a host outside http.allowedHosts without naming it', async () => {
    const res = await http().get('/mcp/explorer').set('Host', 'evil.example');
    expect(res.status).toBe(200);
    expect(configOf(res.text)).not.toHaveProperty('auth');
    expect(res.text).not.toContain('evil.example');
  });
});

describe.each(ADAPTERS)('the explorer behind a proxy (http.publicUrl), on %s', (adapter) => {
  let running: RunningApp;
  const logs = captureLogs();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    running = await start(
      adapter,
      [
        server({
          name: 'shop',
          http: { publicUrl: 'https://mcp.example.com/edge' },
          auth: {
            authorizationServers: ['https://auth.example.invalid'],
            resource: 'https://mcp.example.com/edge/v1/mcp',
          },
        }),
      ],
      { globalPrefix: 'v1', logs },
    );
  });

  afterAll(() => running?.close());

  it('names its routes after the proxy path, and its URLs after the public URL', async () => {
    const res = await http().get('/v1/mcp/explorer');
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="/edge/v1/mcp/explorer/assets/explorer.css"');
    expect(res.text).toContain('src="/edge/v1/mcp/explorer/assets/explorer.js"');
    const config = configOf(res.text);
    expect(config).toMatchObject({
      endpoint: '/edge/v1/mcp',
      sandbox: '/edge/v1/mcp/explorer/view-sandbox',
      auth: {
        resourceMetadataUrl:
          'https://mcp.example.com/.well-known/oauth-protected-resource/edge/v1/mcp',
        clientMetadataUrl:
          'https://mcp.example.com/edge/v1/mcp/explorer/oauth/client-metadata.json',
        redirectUri: 'https://mcp.example.com/edge/v1/mcp/explorer/oauth/callback',
        scopes: ['shop.read'],
      },
    });
    // The resource is on the page's (public) origin: 'self' covers its metadata.
    expect(cspOf(res.headers['content-security-policy'])['connect-src']).toEqual([
      "'self'",
      'https://auth.example.invalid',
    ]);
    const client = await http()
      .get('/v1/mcp/explorer/oauth/client-metadata.json')
      .set('Host', 'evil.example');
    expect(JSON.parse(client.text).client_id).toBe(
      'https://mcp.example.com/edge/v1/mcp/explorer/oauth/client-metadata.json',
    );
  });
});

describe.each(ADAPTERS)('the explorer of the sample, on %s', (adapter) => {
  let running: RunningApp;
  const logs = captureLogs();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    const builder = Test.createTestingModule({ imports: [AppModule] }).setLogger(logs);
    running = await startApp(await builder.compile(), { adapter, logger: logs });
  });

  afterAll(() => running?.close());

  it('offers its locales, the default first, under its discovery title', async () => {
    const res = await http().get('/mcp/explorer');
    expect(res.status).toBe(200);
    expect(configOf(res.text)).toEqual({
      title: 'Product catalog',
      endpoint: '/mcp',
      servers: [
        { name: 'catalog', title: 'Product catalog', endpoint: '/mcp', explorer: '/mcp/explorer' },
      ],
      locales: ['en', 'de'],
      sandbox: '/mcp/explorer/view-sandbox',
    });
  });

  it('tells nothing of the catalog itself: the page asks the endpoint, past its guard', async () => {
    for (const path of ['/mcp/explorer', '/mcp/explorer/view-sandbox']) {
      const res = await http().get(path);
      expect(res.text, path).not.toMatch(/search_products|create_product|get_product/);
    }
    const anonymous = await http()
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Content-Type', 'application/json')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(anonymous.status).toBe(401);
  });
});
