import { decodeProtectedHeader } from 'jose';
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

    it('refuses a revoked opaque token and one the server never issued with 401', async () => {
      const token = await env.as.clientCredentialsToken('catalog.read', { resource: env.resource });
      expect((await post('tools/list', {}, token)).status).toBe(200);
      await env.as.revoke(token);
      for (const refused of [token, 'never-issued-opaque-token-0123456789abcdef']) {
        const res = await post('tools/list', {}, refused);
        expect(res.status).toBe(401);
        expect(challengeOf(res.headers['www-authenticate']).params.error).toBe('invalid_token');
      }
      const fresh = await env.as.clientCredentialsToken('catalog.read', { resource: env.resource });
      expect((await post('tools/list', {}, fresh)).status).toBe(200);
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

describe('an OAuth resource server without a configured resource', () => {
  let as: RunningAuthorizationServer;
  let running: OAuthApp;

  beforeAll(async () => {
    const port = await freePort();
    as = await startAuthorizationServer({ resource: `http://127.0.0.1:${port}/mcp` });
    running = await startOAuthApp({
      adapter: 'express',
      port,
      logger: logs,
      mcp: { auth: { authorizationServers: [as.issuer] } },
    });
  });

  afterAll(async () => {
    await running?.close();
    await as?.close();
  });

  it('derives the resource from the request and the endpoint path, and warns to set it', async () => {
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', running.url))
    ).json();
    expect(metadata.resource).toBe(running.url.href);
    const token = await as.clientCredentialsToken('catalog.read');
    expect((await modernRequest(running.app, '/mcp', 'tools/list', {}, bearer(token))).status).toBe(
      200,
    );
    expect(logs.warnings().map((entry) => entry.message)).toContainEqual(
      expect.stringContaining(
        `auth.resource is not set: this MCP server derives its resource URL from the request (${running.url.href})`,
      ),
    );
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
