/**
 * The sample in its OAuth mode (`SAMPLE_OAUTH_ISSUER`), against a real authorization server
 * in-process (oidc-provider, test/support/authorization-server.ts), driven by the real
 * clients: what issue 15 asks of the sample ("Done when").
 */
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { McpEvents } from 'nestjs-mcp';
import { filter, firstValueFrom } from 'rxjs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import {
  DEFAULT_CLIENT,
  startAuthorizationServer,
  type RunningAuthorizationServer,
} from '../support/authorization-server.js';
import { captureLogs } from '../support/captured-logs.js';
import {
  HOSTILE_TOKEN_NAMES,
  hostileTokens,
  type HostileTokenName,
} from '../support/hostile-tokens.js';
import { challengeOf, recordingFetch } from '../support/oauth-clients.js';
import {
  ADAPTERS,
  startApp,
  type HttpAdapterName,
  type RunningApp,
} from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';
import { MODERN_VERSION, modernMeta } from '../support/mcp-post.js';

const logs = captureLogs();

const READ_TOOLS = ['catalog_get', 'get_product', 'search_products'];
const WRITE_TOOLS = [
  'catalog_delete',
  'catalog_update',
  'create_product',
  'delete_product',
  'reindex_catalog',
  'restock_product',
];
/** A resource the authorization server also issues tokens for: another MCP server. */
const OTHER_RESOURCE = 'https://other.example.com/mcp';
const PUBLIC_RESOURCE = 'https://catalog.example.com/mcp';
/** An agent the authorization server lets read the catalog, and nothing more. */
const READER_CLIENT = {
  clientId: 'catalog-reader',
  clientSecret: 'catalog-reader-secret-0123456789',
  scopes: ['catalog.read'],
};

/** Starts the sample as `npm start` would with these variables (they are read at bootstrap). */
async function startSample(
  adapter: HttpAdapterName,
  env: Record<string, string>,
): Promise<RunningApp> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await startApp(AppModule, { adapter, logger: logs });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** One JSON-RPC request on the given wire (2026-07-28, or the stateless 2025-11-25 leg). */
function rpc(
  app: RunningApp,
  era: 'modern' | 'legacy',
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
): request.Test {
  const req = request(app.app.getHttpServer())
    .post(app.url.pathname)
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json');
  if (token) req.set('Authorization', `Bearer ${token}`);
  if (era === 'legacy') {
    req.set('MCP-Protocol-Version', '2025-11-25');
    return req.send({ jsonrpc: '2.0', id: 1, method, params });
  }
  req.set('MCP-Protocol-Version', MODERN_VERSION).set('Mcp-Method', method);
  const name = params.name ?? params.uri;
  if (typeof name === 'string') req.set('Mcp-Name', name);
  return req.send({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } });
}

/** Each product a test creates has a SKU of its own (the catalog refuses a taken one). */
let nextSku = 1000 + Math.floor(Math.random() * 8000);
const newProduct = () => ({
  sku: `TST-${nextSku++}`,
  name: 'Test kettle',
  description: 'A kettle for the tests',
  category: 'kitchen',
  price: 19.5,
  stock: 3,
});

describe.each(ADAPTERS)('the sample in OAuth mode on %s', (adapter) => {
  let issuer: RunningAuthorizationServer;
  let sample: RunningApp;
  let resource: string;
  let metadataUrl: string;
  let readToken: string;
  let writeToken: string;
  let bothToken: string;

  beforeAll(async () => {
    issuer = await startAuthorizationServer({
      otherResources: [OTHER_RESOURCE],
      clients: [DEFAULT_CLIENT, READER_CLIENT],
    });
    // PORT=0: the port is only known once the sample listens, so the resource (its own URL)
    // comes from each request, as the library does when `auth.resource` is left out.
    sample = await startSample(adapter, { SAMPLE_OAUTH_ISSUER: issuer.issuer, PORT: '0' });
    resource = sample.url.href;
    metadataUrl = `${sample.url.origin}/.well-known/oauth-protected-resource${sample.url.pathname}`;
    issuer.allowResource(resource);
    readToken = await issuer.clientCredentialsToken('catalog.read', { resource });
    writeToken = await issuer.clientCredentialsToken('catalog.write', { resource });
    bothToken = await issuer.clientCredentialsToken('catalog.read catalog.write', { resource });
  });

  afterAll(async () => {
    await sample?.close();
    await issuer?.close();
  });

  it('answers a request without a token with a 401 whose challenge leads to the metadata and the issuer', async () => {
    const res = await rpc(sample, 'modern', undefined, 'tools/list');
    expect(res.status).toBe(401);
    const params = challengeOf(res.headers['www-authenticate']).params;
    expect(params.resource_metadata).toBe(metadataUrl);
    expect(params.error).toBeUndefined(); // no token was sent, so none was invalid
    // PORT=0 leaves the resource to each request, which the library warns about.
    expect(logs.messages('warn', 'OAuthResourceServer')).toContainEqual(
      expect.stringContaining(
        `auth.resource is not set: this MCP server derives its resource URL from the request (${resource})`,
      ),
    );

    const metadata = await fetch(params.resource_metadata!);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['catalog.read', 'catalog.write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Product catalog',
    });
    // One protected server: the same document at the root of the well-known prefix.
    const root = await fetch(`${sample.url.origin}/.well-known/oauth-protected-resource`);
    expect(await root.json()).toMatchObject({ resource, authorization_servers: [issuer.issuer] });
    const discovery = await fetch(`${issuer.issuer}/.well-known/openid-configuration`);
    expect(await discovery.json()).toMatchObject({
      issuer: issuer.issuer,
      token_endpoint: issuer.tokenEndpoint,
    });
  });

  it('lets the v2 client go from the 401 to the metadata, the issuer and a catalog.read token, on its own', async () => {
    const { fetch, exchanges } = recordingFetch();
    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    // The client asks for what the metadata offers; the authorization server grants this
    // client catalog.read only.
    const authProvider = new ClientCredentialsProvider({
      clientId: READER_CLIENT.clientId,
      clientSecret: READER_CLIENT.clientSecret,
      expectedIssuer: issuer.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(sample.url, { authProvider, fetch }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
      const found = await client.callTool({ name: 'search_products', arguments: { limit: 1 } });
      expect(found.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    // Its way there: the endpoint's 401, the metadata it names, the issuer's metadata, the
    // token endpoint (for this resource), then the endpoint again with the token.
    const path = exchanges.map(({ method, url, status }) => `${method} ${url} ${status}`);
    const at = (pattern: string) => path.findIndex((line) => line.startsWith(pattern));
    expect(path[0]).toBe(`POST ${resource} 401`);
    expect(at(`GET ${metadataUrl} 200`)).toBeGreaterThan(0);
    const token = exchanges.find((exchange) => exchange.url === issuer.tokenEndpoint);
    expect(token).toMatchObject({
      status: 200,
      form: { grant_type: 'client_credentials', resource },
    });
    expect(at(`GET ${issuer.issuer}/.well-known/`)).toBeLessThan(
      at(`POST ${issuer.tokenEndpoint}`),
    );
    expect(at(`GET ${metadataUrl}`)).toBeLessThan(at(`GET ${issuer.issuer}/.well-known/`));
    expect(path.at(-1)).toMatch(new RegExp(`^POST ${resource} 20[02]$`));
  });

  it('refuses the static tokens on the MCP endpoint, and keeps them for the REST API', async () => {
    const res = await rpc(sample, 'modern', SAMPLE_DEFAULTS.adminToken, 'tools/list');
    expect(res.status).toBe(401);
    expect(challengeOf(res.headers['www-authenticate']).params.error).toBe('invalid_token');
    const rest = await request(sample.app.getHttpServer())
      .get('/products?limit=1')
      .set('Authorization', `Bearer ${SAMPLE_DEFAULTS.readerToken}`);
    expect(rest.status).toBe(200);
  });

  it("records the token's client and scopes as the caller, and the audit log names the client", async () => {
    const called = firstValueFrom(
      sample.app.get(McpEvents).toolCalled.pipe(filter((event) => event.tool === 'get_product')),
    );
    const res = await rpc(sample, 'modern', readToken, 'tools/call', {
      name: 'get_product',
      arguments: { id: 'b8a3e60b-fbb3-4502-b2b6-9916fc2f7891' },
    });
    expect(res.status).toBe(200);
    expect((await called).caller).toMatchObject({
      clientId: DEFAULT_CLIENT.clientId,
      scopes: ['catalog.read'],
      iss: issuer.issuer,
      aud: resource,
    });
    expect(logs.messages('log', 'Audit')).toContainEqual(
      expect.stringMatching(/^catalog-agent called get_product \(success, /),
    );
  });

  describe.each(CLIENTS)('driven by the $era', ({ connect }) => {
    let reader: TestClient;
    let writer: TestClient;

    beforeAll(async () => {
      reader = await connect(sample.url, readToken);
      writer = await connect(sample.url, writeToken);
    });

    afterAll(async () => {
      await reader?.close();
      await writer?.close();
    });

    it('lists and calls only the read tools with a catalog.read token', async () => {
      expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
      const found = await reader.callTool('search_products', { category: 'books', limit: 2 });
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent.items).toHaveLength(2);
      const fetched = await reader.callTool('get_product', {
        id: found.structuredContent.items[0].id,
      });
      expect(fetched.structuredContent).toEqual(found.structuredContent.items[0]);
      const categories = await reader.sdk.readResource({ uri: 'catalog://categories' });
      expect(JSON.parse(categories.contents[0].text)).toHaveLength(5);
    });

    it('lists and calls the write tools with a catalog.write token', async () => {
      expect((await writer.listTools()).tools.map((tool) => tool.name)).toEqual(WRITE_TOOLS);
      const created = await writer.callTool('create_product', newProduct());
      expect(created.isError).toBeFalsy();
      const deleted = await writer.callTool('delete_product', { id: created.structuredContent.id });
      expect(deleted.isError).toBeFalsy();
      expect(deleted.structuredContent.id).toBe(created.structuredContent.id);
    });

    it('runs the REST routes published as tools for OAuth callers, by the scopes of their tokens', async () => {
      const { id } = (await writer.callTool('create_product', newProduct())).structuredContent;
      const updated = await writer.callTool('catalog_update', { id, price: 24.5 });
      expect(updated.isError, JSON.stringify(updated)).toBeFalsy();
      expect(updated.structuredContent).toMatchObject({ id, price: 24.5 });
      const fetched = await reader.callTool('catalog_get', { id });
      expect(fetched.structuredContent).toMatchObject({ id, price: 24.5 });
      // The reader's token grants no catalog.write: refused before the route runs.
      const refused = await rpc(sample, 'modern', readToken, 'tools/call', {
        name: 'catalog_delete',
        arguments: { id },
      });
      expect(refused.status).toBe(403);
      expect((await writer.callTool('catalog_delete', { id })).isError).toBeFalsy();
    });
  });

  describe.each(['modern', 'legacy'] as const)('step-up on the %s wire', (era) => {
    it('answers a write call with a catalog.read token with 403 naming catalog.write, and a token with it succeeds', async () => {
      const call = { name: 'create_product', arguments: newProduct() };
      const refused = await rpc(sample, era, readToken, 'tools/call', call);
      expect(refused.status).toBe(403);
      expect(challengeOf(refused.headers['www-authenticate']).params).toMatchObject({
        error: 'insufficient_scope',
        error_description:
          "The tool 'create_product' needs the scope(s) catalog.write; the token has catalog.read: request a token with them",
        scope: 'catalog.write',
        resource_metadata: metadataUrl,
      });

      const stepped = await issuer.clientCredentialsToken('catalog.read catalog.write', {
        resource,
      });
      const done = await rpc(sample, era, stepped, 'tools/call', call);
      expect(done.status).toBe(200);
      expect(done.text).toContain(call.arguments.sku);
    });

    it('answers a read of a resource with a catalog.write token with 403 naming catalog.read', async () => {
      const refused = await rpc(sample, era, writeToken, 'resources/read', {
        uri: 'catalog://categories',
      });
      expect(refused.status).toBe(403);
      expect(challengeOf(refused.headers['www-authenticate']).params).toMatchObject({
        error: 'insufficient_scope',
        scope: 'catalog.read',
      });
      const allowed = await rpc(sample, era, bothToken, 'resources/read', {
        uri: 'catalog://categories',
      });
      expect(allowed.status).toBe(200);
    });
  });

  describe('hostile tokens', () => {
    let hostile: Record<HostileTokenName, string>;

    beforeAll(async () => {
      hostile = await hostileTokens(issuer, { resource, otherResource: OTHER_RESOURCE });
    });

    it.each(HOSTILE_TOKEN_NAMES)(
      'answers a token %s with 401 invalid_token, and keeps serving',
      async (name) => {
        const res = await rpc(sample, 'modern', hostile[name], 'tools/list');
        expect(res.status).toBe(401);
        expect(challengeOf(res.headers['www-authenticate'])).toMatchObject({
          scheme: 'Bearer',
          params: { error: 'invalid_token', resource_metadata: metadataUrl },
        });
        expect((await rpc(sample, 'modern', bothToken, 'tools/list')).status).toBe(200);
      },
    );

    it('refuses a token in the query string with 401, and keeps serving', async () => {
      const res = await request(sample.app.getHttpServer())
        .post(`${sample.url.pathname}?access_token=${encodeURIComponent(bothToken)}`)
        .set('Accept', 'application/json, text/event-stream')
        .set('Content-Type', 'application/json')
        .set('MCP-Protocol-Version', MODERN_VERSION)
        .set('Mcp-Method', 'tools/list')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
      expect(res.status).toBe(401);
      expect(challengeOf(res.headers['www-authenticate']).params.resource_metadata).toBe(
        metadataUrl,
      );
      expect((await rpc(sample, 'modern', bothToken, 'tools/list')).status).toBe(200);
    });
  });
});

describe('the sample in OAuth mode behind its public URL (SAMPLE_OAUTH_RESOURCE)', () => {
  let issuer: RunningAuthorizationServer;
  let sample: RunningApp;

  beforeAll(async () => {
    issuer = await startAuthorizationServer({ resource: PUBLIC_RESOURCE });
    sample = await startSample('express', {
      SAMPLE_OAUTH_ISSUER: issuer.issuer,
      SAMPLE_OAUTH_RESOURCE: PUBLIC_RESOURCE,
    });
    issuer.allowResource(sample.url.href);
  });

  afterAll(async () => {
    await sample?.close();
    await issuer?.close();
  });

  it('names that URL in its metadata and accepts only tokens issued for it', async () => {
    const metadata = await fetch(
      `${sample.url.origin}/.well-known/oauth-protected-resource${sample.url.pathname}`,
    );
    expect(await metadata.json()).toMatchObject({ resource: PUBLIC_RESOURCE });
    const forPublic = await issuer.clientCredentialsToken('catalog.read');
    expect((await rpc(sample, 'modern', forPublic, 'tools/list')).status).toBe(200);
    const forLocal = await issuer.clientCredentialsToken('catalog.read', {
      resource: sample.url.href,
    });
    const refused = await rpc(sample, 'modern', forLocal, 'tools/list');
    expect(refused.status).toBe(401);
    expect(challengeOf(refused.headers['www-authenticate']).params.error).toBe('invalid_token');
  });
});
