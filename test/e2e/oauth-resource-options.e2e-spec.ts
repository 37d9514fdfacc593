import { decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, type OAuthApp, READ_TOOLS, startOAuthApp } from '../fixtures/oauth.fixture.js';
import {
  RESOURCE_SERVER_CLIENT,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from '../support/authorization-server.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS } from '../support/fixture-app.js';
import { modernRequest } from '../support/mcp-post.js';
import { challengeOf } from '../support/oauth-clients.js';

// The `auth` options beyond the main path, each against the real authorization server:
// opaque tokens through introspection, a global prefix, scopes the endpoint itself needs,
// a derived resource, and a rotated signing key.

const logs = captureLogs();

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/** An authorization server and the catalog app trusting it, started and closed around a describe. */
function catalogBehind(
  adapter: 'express' | 'fastify',
  configure: (as: RunningAuthorizationServer, resource: string) => Record<string, unknown>,
  options: { opaque?: boolean; globalPrefix?: string } = {},
) {
  const env = {} as { as: RunningAuthorizationServer; running: OAuthApp; resource: string };
  beforeAll(async () => {
    const port = await freePort();
    const path = [options.globalPrefix, 'mcp'].filter(Boolean).join('/');
    env.resource = `http://127.0.0.1:${port}/${path}`;
    env.as = await startAuthorizationServer(
      options.opaque ? { opaqueResources: [env.resource] } : { resource: env.resource },
    );
    env.running = await startOAuthApp({
      adapter,
      port,
      logger: logs,
      globalPrefix: options.globalPrefix,
      mcp: { auth: { authorizationServers: [env.as.issuer], ...configure(env.as, env.resource) } },
    });
  });
  afterAll(async () => {
    await env.running?.close();
    await env.as?.close();
  });
  return env;
}

describe.each(ADAPTERS)('auth options with a real authorization server, on %s', (adapter) => {
  describe('opaque tokens through introspection (RFC 7662)', () => {
    const env = catalogBehind(
      adapter,
      (_as, resource) => ({
        resource,
        introspection: {
          clientId: RESOURCE_SERVER_CLIENT.clientId,
          clientSecret: RESOURCE_SERVER_CLIENT.clientSecret,
        },
      }),
      { opaque: true },
    );
    const post = (method: string, params: Record<string, unknown>, token: string) =>
      modernRequest(env.running.app, '/mcp', method, params, bearer(token));

    it('accepts an active opaque token with its scopes, and refuses the call it does not cover', async () => {
      const token = await env.as.clientCredentialsToken('catalog.read', { resource: env.resource });
      expect(token).not.toContain('.');
      const list = await post('tools/list', {}, token);
      expect(list.status).toBe(200);
      expect(list.body.result.tools.map((tool: { name: string }) => tool.name).toSorted()).toEqual(
        READ_TOOLS.toSorted(),
      );
      const refused = await post(
        'tools/call',
        { name: 'add_product', arguments: { name: 'x' } },
        token,
      );
      expect(refused.status).toBe(403);
      expect(challengeOf(refused.headers['www-authenticate']).params).toMatchObject({
        error: 'insufficient_scope',
        scope: 'catalog.write',
      });
    });

    it('refuses a revoked opaque token once its cached answer is 60 s old, and one the server never issued, with 401', async () => {
      const token = await env.as.clientCredentialsToken('catalog.read', { resource: env.resource });
      expect((await post('tools/list', {}, token)).status).toBe(200);
      await env.as.revoke(token);
      // The active answer is reused for auth.introspection.cacheTtlSeconds (60 s by default,
      // RFC 7662 §4); `cacheTtlSeconds: 0` sees a revocation at once
      // (oauth-introspection.e2e-spec.ts).
      expect((await post('tools/list', {}, token)).status).toBe(200);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 61_000);
        for (const refused of [token, 'never-issued-opaque-token-0123456789abcdef']) {
          const res = await post('tools/list', {}, refused);
          expect(res.status).toBe(401);
          expect(challengeOf(res.headers['www-authenticate']).params.error).toBe('invalid_token');
        }
        const fresh = await env.as.clientCredentialsToken('catalog.read', {
          resource: env.resource,
        });
        expect((await post('tools/list', {}, fresh)).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('behind a global prefix', () => {
    const env = catalogBehind(adapter, (_as, resource) => ({ resource }), { globalPrefix: 'api' });

    it('serves the metadata at the host root, path-inserted with the prefixed endpoint path', async () => {
      const res = await modernRequest(env.running.app, '/api/mcp', 'tools/list');
      expect(res.status).toBe(401);
      const metadataUrl = challengeOf(res.headers['www-authenticate']).params.resource_metadata!;
      expect(metadataUrl).toBe(
        new URL('/.well-known/oauth-protected-resource/api/mcp', env.resource).href,
      );
      const metadata = await (await fetch(metadataUrl)).json();
      expect(metadata).toMatchObject({
        resource: env.resource,
        authorization_servers: [env.as.issuer],
      });
      const token = await env.as.clientCredentialsToken('catalog.read');
      const listed = await modernRequest(
        env.running.app,
        '/api/mcp',
        'tools/list',
        {},
        bearer(token),
      );
      expect(listed.status).toBe(200);
    });
  });

  describe('scopes every request to the endpoint needs (requiredScopes)', () => {
    const env = catalogBehind(adapter, (_as, resource) => ({
      resource,
      requiredScopes: ['catalog.read'],
    }));

    it('names them in the 401, and answers a token without them with 403 naming them', async () => {
      const anonymous = await modernRequest(env.running.app, '/mcp', 'tools/list');
      expect(anonymous.status).toBe(401);
      expect(challengeOf(anonymous.headers['www-authenticate']).params.scope).toBe('catalog.read');

      const writeOnly = await env.as.clientCredentialsToken('catalog.write');
      const refused = await modernRequest(
        env.running.app,
        '/mcp',
        'tools/list',
        {},
        bearer(writeOnly),
      );
      expect(refused.status).toBe(403);
      const { params } = challengeOf(refused.headers['www-authenticate']);
      expect(params.error).toBe('insufficient_scope');
      expect(params.scope!.split(' ')).toContain('catalog.read');
      expect(params.scope!.split(' ')).not.toContain('offline_access');

      const reader = await env.as.clientCredentialsToken('catalog.read');
      const served = await modernRequest(
        env.running.app,
        '/mcp',
        'tools/call',
        { name: 'list_products', arguments: {} },
        bearer(reader),
      );
      expect(served.status).toBe(200);
      expect(textOf(served.body.result)).toContain('tea');
    });
  });
});

/** A 2026-07-28 `tools/list` with a bearer token and other headers (`Host`, `X-Forwarded-*`). */
const listOn = (app: OAuthApp, token: string, headers: Record<string, string> = {}) =>
  modernRequest(app.app, '/mcp', 'tools/list', {}, { ...bearer(token), ...headers });

describe.each(ADAPTERS)('an OAuth resource server without auth.resource, on %s', (adapter) => {
  const OTHER_SERVICE = 'http://other-service.example/mcp';
  const PUBLIC = 'https://mcp.example.com/mcp';
  let as: RunningAuthorizationServer;
  /** Behind a trusted proxy, the resource derived from a host of http.allowedHosts. */
  let proxied: OAuthApp;
  /** The Host check off: only http.allowedHosts keeps a Host from choosing the audience. */
  let unchecked: OAuthApp;

  beforeAll(async () => {
    const [proxiedPort, uncheckedPort] = [await freePort(), await freePort()];
    as = await startAuthorizationServer({
      resource: `http://127.0.0.1:${proxiedPort}/mcp`,
      otherResources: [OTHER_SERVICE, PUBLIC, `http://127.0.0.1:${uncheckedPort}/mcp`],
    });
    proxied = await startOAuthApp({
      adapter,
      port: proxiedPort,
      logger: logs,
      trustProxy: true,
      mcp: {
        http: { allowedHosts: ['127.0.0.1', 'mcp.example.com'] },
        auth: { authorizationServers: [as.issuer] },
      },
    });
    unchecked = await startOAuthApp({
      adapter,
      port: uncheckedPort,
      logger: logs,
      mcp: {
        http: { allowedHosts: ['127.0.0.1'], dnsRebindingProtection: false },
        auth: { authorizationServers: [as.issuer] },
      },
    });
  });

  afterAll(async () => {
    await proxied?.close();
    await unchecked?.close();
    await as?.close();
  });

  it('refuses to start without http.allowedHosts, saying to set auth.resource or http.allowedHosts', async () => {
    await expect(
      startOAuthApp({
        adapter,
        port: await freePort(),
        logger: logs,
        mcp: { auth: { authorizationServers: [as.issuer] } },
      }),
    ).rejects.toThrow(
      /"auth\.resource" is required on the HTTP endpoint.*auth\.resource: 'https:\/\/<your host>\/mcp' \(recommended\), or list the hosts this server answers to in http\.allowedHosts/,
    );
  });

  it('derives the resource from a request to a listed host, and warns to set it', async () => {
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', proxied.url))
    ).json();
    expect(metadata.resource).toBe(proxied.url.href);
    const token = await as.clientCredentialsToken('catalog.read');
    expect((await listOn(proxied, token)).status).toBe(200);
    expect(logs.warnings().map((entry) => entry.message)).toContainEqual(
      expect.stringContaining(
        `auth.resource is not set: this MCP server derives its resource URL from the request (${proxied.url.href}), whose host is one of http.allowedHosts`,
      ),
    );
  });

  it('refuses, with 403 before the token is read, a Host outside the list that would choose the audience', async () => {
    const token = await as.clientCredentialsToken('catalog.read', { resource: OTHER_SERVICE });
    const refused = await listOn(unchecked, token, { Host: 'other-service.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(
        /^This MCP server does not serve the host other-service\.example: .* 127\.0\.0\.1\./,
      ),
    });
    expect(refused.headers['www-authenticate']).toBeUndefined();
    // Its metadata names no resource for that host either.
    const metadata = await request(unchecked.app.getHttpServer())
      .get('/.well-known/oauth-protected-resource/mcp')
      .set('Host', 'other-service.example');
    expect(metadata.status).toBe(404);
    expect(metadata.body).toMatchObject({ error: 'not_found' });
  });

  it('refuses an X-Forwarded-Host outside the list behind a trusted proxy, and takes one in it', async () => {
    const other = await as.clientCredentialsToken('catalog.read', { resource: OTHER_SERVICE });
    const refused = await listOn(proxied, other, { 'X-Forwarded-Host': 'other-service.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.error_description).toMatch(/does not serve the host other-service/);

    const forwarded = { 'X-Forwarded-Host': 'mcp.example.com', 'X-Forwarded-Proto': 'https' };
    const publicToken = await as.clientCredentialsToken('catalog.read', { resource: PUBLIC });
    expect((await listOn(proxied, publicToken, forwarded)).status).toBe(200);
    // A token for the address behind the proxy is not one for the public resource.
    const local = await as.clientCredentialsToken('catalog.read');
    expect((await listOn(proxied, local, forwarded)).status).toBe(401);
  });
});

describe.each(ADAPTERS)(
  'an OAuth resource server when the authorization server rotates its key, on %s',
  (adapter) => {
    let as: RunningAuthorizationServer;
    let running: OAuthApp;

    beforeAll(async () => {
      const port = await freePort();
      const resource = `http://127.0.0.1:${port}/mcp`;
      as = await startAuthorizationServer({ resource });
      running = await startOAuthApp({
        adapter,
        port,
        logger: logs,
        mcp: { auth: { authorizationServers: [as.issuer], resource } },
      });
    });

    afterAll(async () => {
      await running?.close();
      await as?.close();
    });

    const list = (token: string) =>
      modernRequest(running.app, '/mcp', 'tools/list', {}, bearer(token));

    it('accepts tokens signed with a new key, and those of the old key it still publishes', async () => {
      const before = await as.clientCredentialsToken('catalog.read');
      expect((await list(before)).status).toBe(200);
      await as.rotateSigningKey();
      const after = await as.clientCredentialsToken('catalog.read');
      expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
      // A JWKS is refetched for an unknown kid at most every 30 s (jose's cooldown, which
      // keeps tokens with made-up kids from hammering the authorization server): the
      // rotation is seen as happening a minute after the keys were fetched.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 60_000);
        expect((await list(after)).status).toBe(200);
        expect((await list(before)).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  },
);
