/**
 * The Server Card and the AI Catalog over HTTP, on Express and Fastify: served without any
 * guard (the endpoint's or the app's global ones), with the draft's media type, CORS and
 * caching headers, an entity tag that follows what the server is at run time, and the
 * endpoint's absolute URL from `http.publicUrl` and the global prefix, or from the request's
 * host only where the server answers to it.
 */
import {
  Injectable,
  Module,
  type CanActivate,
  type DynamicModule,
  type Type,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpModule, McpServers, McpTool, type McpModuleOptions } from 'nestjs-mcp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import { serverCardProblems } from '../../support/discovery-schemas.js';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Refuses every request that reaches a Nest route. */
@Injectable()
class DenyAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class ShopTools {
  @McpTool({ description: 'Finds products.', group: 'shop' })
  find(): string {
    return 'found';
  }

  /** Added at run time, as a task tool. */
  reindex(): string {
    return 'reindexed';
  }
}

const server = (options: Partial<McpModuleOptions> & { name: string }): DynamicModule =>
  McpModule.forRoot({ version: '2.0.0', ...options });

async function start(
  adapter: (typeof ADAPTERS)[number],
  imports: DynamicModule[],
  extra: { providers?: Type[]; globalPrefix?: string } = {},
): Promise<RunningApp> {
  @Module({
    imports,
    providers: [ShopTools, { provide: APP_GUARD, useClass: DenyAll }, ...(extra.providers ?? [])],
  })
  class DiscoveryAppModule {}
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryAppModule] }).compile();
  return startApp(moduleRef, { adapter, globalPrefix: extra.globalPrefix });
}

const CARD_ACCEPT = 'application/mcp-server-card+json';

describe.each(ADAPTERS)('the Server Card on %s', (adapter) => {
  let running: RunningApp;
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    running = await start(adapter, [
      server({
        name: 'shop',
        group: 'shop',
        instructions: 'Finds products of the shop. Never deletes any.',
        http: { path: 'mcp', guards: [DenyAll] },
        discovery: { name: 'com.example/shop' },
      }),
    ]);
  });

  afterAll(() => running?.close());

  it('is served to a caller without credentials past every guard, the endpoint refusing it', async () => {
    const endpoint = await http()
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(endpoint.status).toBe(403);

    const res = await http().get('/mcp/server-card').set('Accept', CARD_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(CARD_ACCEPT);
    expect(res.headers).toMatchObject({
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Content-Type, If-None-Match',
      'access-control-expose-headers': 'ETag',
    });
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
    const card = JSON.parse(res.text);
    expect(serverCardProblems(card)).toEqual([]);
    expect(card).toMatchObject({
      name: 'com.example/shop',
      version: '2.0.0',
      description: 'Finds products of the shop.',
      remotes: [{ type: 'streamable-http', url: running.url.href }],
    });
    expect(card.remotes[0].supportedProtocolVersions[0]).toBe('2026-07-28');
    expect(card._meta['nestjs-mcp/capabilities']).toMatchObject({ tools: {}, completions: {} });
    // No OAuth, so no link; no primitive is ever listed.
    expect(card._meta).not.toHaveProperty('nestjs-mcp/authorization');
    expect(res.text).not.toContain('find');
  });

  it('answers If-None-Match with 304, HEAD without a body, and the CORS preflight', async () => {
    const first = await http().get('/mcp/server-card');
    const again = await http().get('/mcp/server-card').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('public, max-age=3600');

    const head = await http().head('/mcp/server-card');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(first.headers.etag);
    expect(head.text ?? '').toBe('');

    const preflight = await http()
      .options('/mcp/server-card')
      .set('Origin', 'https://client.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'if-none-match');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type, If-None-Match');
  });

  it('changes its entity tag when the server changes at run time', async () => {
    const before = await http().get('/mcp/server-card');
    expect(before.body._meta?.['nestjs-mcp/capabilities']?.extensions).toBeUndefined();
    const host = running.app.get(McpServers).get('shop');
    host.addTool(running.app.get(ShopTools), 'reindex', {
      task: 'optional',
      description: 'Rebuilds the index.',
    });
    try {
      const after = await http().get('/mcp/server-card').set('If-None-Match', before.headers.etag);
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const card = JSON.parse(after.text);
      expect(card._meta['nestjs-mcp/capabilities'].extensions).toEqual({ [TASKS_EXTENSION]: {} });
      expect(serverCardProblems(card)).toEqual([]);
    } finally {
      host.removeTool('reindex');
    }
    const restored = await http().get('/mcp/server-card');
    expect(restored.headers.etag).toBe(before.headers.etag);
  });

  it('names no endpoint for a host the server does not answer to', async () => {
    const res = await http().get('/mcp/server-card').set('Host', 'evil.example');
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.error_description).toContain('http.publicUrl');
    expect(res.text).not.toContain('evil.example');
  });

  it('is listed in the AI Catalog at the well-known URI', async () => {
    const res = await http().get('/.well-known/ai-catalog.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/ai-catalog+json');
    expect(res.headers.etag).toMatch(/^"/);
    expect(JSON.parse(res.text)).toEqual({
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:example.com:mcp:shop',
          type: CARD_ACCEPT,
          url: `${running.url.href}/server-card`,
        },
      ],
    });
  });

  it('leaves other methods and paths to the app', async () => {
    expect((await http().post('/mcp/server-card').send({})).status).not.toBe(200);
    expect((await http().get('/mcp/server-cards')).status).not.toBe(200);
  });
});

describe.each(ADAPTERS)('several servers with a global prefix on %s', (adapter) => {
  let running: RunningApp;
  const http = () => request(running.app.getHttpServer());
  const PUBLIC = 'https://api.example.com';

  beforeAll(async () => {
    running = await start(
      adapter,
      [
        server({
          name: 'shop',
          group: 'shop',
          http: { path: 'mcp/shop', publicUrl: `${PUBLIC}/` },
          auth: {
            authorizationServers: ['https://as.example.com'],
            resource: `${PUBLIC}/api/mcp/shop`,
          },
          discovery: {
            name: 'com.example/shop',
            title: 'Shop',
            description: 'The shop.',
          },
        }),
        server({
          name: 'ops',
          group: 'ops',
          http: { path: 'mcp/ops', publicUrl: PUBLIC },
          discovery: {
            name: 'com.example/ops',
            aiCatalog: false,
            headers: [{ name: 'X-API-Key', value: '{key}', isRequired: true, isSecret: true }],
          },
        }),
        server({ name: 'quiet', group: 'quiet', http: { path: 'mcp/quiet' } }),
        server({
          name: 'unlisted',
          group: 'unlisted',
          http: { path: 'mcp/unlisted' },
          discovery: { name: 'com.example/unlisted', card: false },
        }),
      ],
      { globalPrefix: 'api' },
    );
  });

  afterAll(() => running?.close());

  it('gives each server its card, at its endpoint under the prefix, naming its public URL', async () => {
    const shop = await http().get('/api/mcp/shop/server-card').set('Host', 'internal:8080');
    expect(shop.status).toBe(200);
    const card = JSON.parse(shop.text);
    expect(serverCardProblems(card)).toEqual([]);
    expect(card).toMatchObject({
      name: 'com.example/shop',
      title: 'Shop',
      description: 'The shop.',
      remotes: [{ url: `${PUBLIC}/api/mcp/shop` }],
      _meta: {
        'nestjs-mcp/authorization': {
          resourceMetadata: `${PUBLIC}/.well-known/oauth-protected-resource/api/mcp/shop`,
        },
      },
    });
    expect(card.remotes[0]).not.toHaveProperty('headers');

    const ops = JSON.parse((await http().get('/api/mcp/ops/server-card')).text);
    expect(ops.remotes).toMatchObject([
      { url: `${PUBLIC}/api/mcp/ops`, headers: [{ name: 'X-API-Key', value: '{key}' }] },
    ]);
    expect(serverCardProblems(ops)).toEqual([]);
  });

  it('serves no card for a server without discovery or with card: false', async () => {
    expect((await http().get('/api/mcp/quiet/server-card')).status).not.toBe(200);
    expect((await http().get('/api/mcp/unlisted/server-card')).status).not.toBe(200);
    expect((await http().get('/mcp/shop/server-card')).status).not.toBe(200);
  });

  it('lists in the AI Catalog only the cards that ask for it', async () => {
    const res = await http().get('/.well-known/ai-catalog.json');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).entries).toEqual([
      {
        identifier: 'urn:air:example.com:mcp:shop',
        type: CARD_ACCEPT,
        url: `${PUBLIC}/api/mcp/shop/server-card`,
      },
    ]);
  });
});
