/**
 * The sample's Server Card, fetched as curl or a browser fetches it, without a token: what
 * issue 32 asks of the sample ("Done when"). A card valid against the draft's schema that
 * names the server, its endpoint and its auth, and nothing that only the admin may see, with
 * an entity tag that `If-None-Match` revalidates; in the token mode and in the OAuth mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { serverCardProblems } from '../support/discovery-schemas.js';
import {
  ADAPTERS,
  startApp,
  type HttpAdapterName,
  type RunningApp,
} from '../support/fixture-app.js';
import { postModern } from '../support/mcp-post.js';

const CARD_TYPE = 'application/mcp-server-card+json';
/** Every tool of the sample: the card lists none, those of the admin least of all. */
const TOOLS = [
  'catalog_get',
  'get_product',
  'search_products',
  'catalog_delete',
  'catalog_update',
  'create_product',
  'delete_product',
  'reindex_catalog',
  'restock_product',
];

/** A GET with nothing but `Accept` (and what `headers` add), as curl sends it. */
const fetchCard = (running: RunningApp, headers: Record<string, string> = {}) =>
  fetch(new URL('/mcp/server-card', running.url), { headers: { Accept: CARD_TYPE, ...headers } });

/** Starts the sample as `npm start` would with these variables (read at bootstrap). */
async function startSample(
  adapter: HttpAdapterName,
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await startApp(AppModule, { adapter });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe.each(ADAPTERS)('the sample Server Card on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startSample(adapter);
  });

  afterAll(() => running?.close());

  it('is served without a token: valid, naming the server, its endpoint and its header', async () => {
    const res = await fetchCard(running);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(CARD_TYPE);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    const card = JSON.parse(text);
    expect(serverCardProblems(card)).toEqual([]);
    expect(card).toMatchObject({
      name: 'com.example/catalog',
      title: 'Product catalog',
      version: '1.0.0',
      description: 'Search and read the product catalog of an online shop.',
      remotes: [
        {
          type: 'streamable-http',
          url: `${running.url.origin}/mcp`,
          headers: [{ name: 'Authorization', value: 'Bearer {token}', isSecret: true }],
        },
      ],
    });
    for (const tool of TOOLS) expect(text).not.toContain(tool);
    expect(text).not.toContain(SAMPLE_DEFAULTS.adminToken);
    expect(text).not.toContain('catalog.write');
  });

  it('is the same card whoever asks, and states what server/discover states', async () => {
    const anonymous = await fetchCard(running);
    const admin = await fetchCard(running, {
      Authorization: `Bearer ${SAMPLE_DEFAULTS.adminToken}`,
    });
    expect(admin.headers.get('etag')).toBe(anonymous.headers.get('etag'));
    const text = await anonymous.text();
    // Byte for byte: the admin's token shows nothing more (no primitive is ever listed).
    expect(await admin.text()).toBe(text);
    const card = JSON.parse(text);
    const discover = await postModern(
      running.app,
      '/mcp',
      'server/discover',
      {},
      {
        Authorization: `Bearer ${SAMPLE_DEFAULTS.readerToken}`,
      },
    );
    expect(discover.status).toBe(200);
    const { result } = discover.message;
    expect(card._meta['nestjs-mcp/capabilities']).toEqual(result.capabilities);
    expect(card.remotes[0].supportedProtocolVersions).toEqual(
      expect.arrayContaining(result.supportedVersions),
    );
    // 2026-07-28 states the server's identity in the result's `_meta`.
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'catalog',
      version: card.version,
    });
  });

  it('answers If-None-Match with its entity tag with 304 and no body', async () => {
    const first = await fetchCard(running);
    const etag = first.headers.get('etag')!;
    const again = await fetchCard(running, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
  });

  it('is listed in the AI Catalog at /.well-known/ai-catalog.json', async () => {
    const res = await fetch(new URL('/.well-known/ai-catalog.json', running.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:example.com:mcp:catalog',
          type: CARD_TYPE,
          url: `${running.url.origin}/mcp/server-card`,
        },
      ],
    });
  });
});

describe.each(ADAPTERS)('the sample Server Card in OAuth mode on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    // No token is asked for: the authorization server is named, never reached.
    running = await startSample(adapter, {
      SAMPLE_OAUTH_ISSUER: 'https://issuer.example.com/',
      PORT: '0',
    });
  });

  afterAll(() => running?.close());

  it('links to the Protected Resource Metadata instead of naming a header', async () => {
    const res = await fetchCard(running);
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(serverCardProblems(card)).toEqual([]);
    const metadata = `${running.url.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(card.remotes).toEqual([expect.not.objectContaining({ headers: expect.anything() })]);
    expect(card.remotes[0].url).toBe(`${running.url.origin}/mcp`);
    expect(card._meta['nestjs-mcp/authorization']).toEqual({ resourceMetadata: metadata });

    const linked = await fetch(metadata);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toMatchObject({
      resource: `${running.url.origin}/mcp`,
      authorization_servers: ['https://issuer.example.com/'],
    });
  });
});
