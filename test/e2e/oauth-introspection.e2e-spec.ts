import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, type OAuthApp, startOAuthApp } from '../fixtures/oauth.fixture.js';
import {
  RESOURCE_SERVER_CLIENT,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from '../support/authorization-server.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS } from '../support/fixture-app.js';
import { modernRequest } from '../support/mcp-post.js';

// Opaque tokens through introspection (RFC 7662), against real authorization servers: the
// issuer a token is sent to, the cache of the answers, and an authorization server that
// rate-limits or fails (issue 31, finding 8).

const logs = captureLogs();

const CREDENTIALS = {
  clientId: RESOURCE_SERVER_CLIENT.clientId,
  clientSecret: RESOURCE_SERVER_CLIENT.clientSecret,
};

/** An authorization server of opaque tokens and the catalog app introspecting them. */
function opaqueCatalog(
  adapter: 'express' | 'fastify',
  introspection: Record<string, unknown> = {},
) {
  const env = {} as { as: RunningAuthorizationServer; running: OAuthApp; resource: string };
  beforeAll(async () => {
    const port = await freePort();
    env.resource = `http://127.0.0.1:${port}/mcp`;
    env.as = await startAuthorizationServer({ opaqueResources: [env.resource] });
    env.running = await startOAuthApp({
      adapter,
      port,
      logger: logs,
      mcp: {
        auth: {
          authorizationServers: [env.as.issuer],
          resource: env.resource,
          introspection: { ...CREDENTIALS, ...introspection },
        },
      },
    });
  });
  afterAll(async () => {
    await env.running?.close();
    await env.as?.close();
  });
  return {
    env,
    token: () => env.as.clientCredentialsToken('catalog.read', { resource: env.resource }),
    list: (token: string) =>
      modernRequest(
        env.running.app,
        '/mcp',
        'tools/list',
        {},
        { Authorization: `Bearer ${token}` },
      ),
  };
}

/** The warnings of the endpoint's token check in this test. */
const warnings = () => logs.messages('warn', 'McpOAuthGuard');

/** Runs `body` with `Date` moved `ms` ahead (timers stay real), then restores it. */
async function later<T>(ms: number, body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + ms);
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

describe.each(ADAPTERS)('token introspection on %s', (adapter) => {
  describe('the cache of the answers', () => {
    const { env, token, list } = opaqueCatalog(adapter);

    it('asks the authorization server once per token, not once per request', async () => {
      const opaque = await token();
      const before = env.as.introspections();
      for (let i = 0; i < 5; i++) expect((await list(opaque)).status).toBe(200);
      expect(env.as.introspections() - before).toBe(1);
    });

    it('asks once about a garbage token repeated, then again after 10 s', async () => {
      const before = env.as.introspections();
      for (let i = 0; i < 5; i++) expect((await list('garbage-0123456789')).status).toBe(401);
      expect(env.as.introspections() - before).toBe(1);
      await later(11_000, async () => {
        expect((await list('garbage-0123456789')).status).toBe(401);
      });
      expect(env.as.introspections() - before).toBe(2);
    });

    it('asks again about an active token once its answer is 60 s old', async () => {
      const opaque = await token();
      expect((await list(opaque)).status).toBe(200);
      const before = env.as.introspections();
      await later(61_000, async () => {
        expect((await list(opaque)).status).toBe(200);
        expect((await list(opaque)).status).toBe(200);
      });
      expect(env.as.introspections() - before).toBe(1);
    });
  });

  describe('with cacheTtlSeconds: 0', () => {
    const { env, token, list } = opaqueCatalog(adapter, { cacheTtlSeconds: 0 });

    it('sees a revocation at once', async () => {
      const opaque = await token();
      expect((await list(opaque)).status).toBe(200);
      expect((await list(opaque)).status).toBe(200);
      await env.as.revoke(opaque);
      expect((await list(opaque)).status).toBe(401);
    });
  });

  describe('an authorization server that rate-limits or fails', () => {
    const { env, token, list } = opaqueCatalog(adapter);

    it('answers 503 with its Retry-After, does not call it meanwhile, serves cached tokens, and warns once a minute', async () => {
      const known = await token();
      expect((await list(known)).status).toBe(200);
      const [first, second] = [await token(), await token()];

      env.as.failIntrospection(429, { 'Retry-After': '20' });
      const before = env.as.introspections();
      const limited = await list(first);
      expect(limited.status).toBe(503);
      expect(limited.headers['retry-after']).toBe('20');
      expect(limited.body).toMatchObject({ error: 'temporarily_unavailable' });
      // Within its Retry-After it is not asked again; a token it already answered still works.
      for (const opaque of [first, second, first]) {
        const refused = await list(opaque);
        expect(refused.status).toBe(503);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(20);
      }
      expect((await list(known)).status).toBe(200);
      expect(env.as.introspections() - before).toBe(1);
      expect(warnings()).toEqual([
        expect.stringMatching(/introspection endpoint .* answered HTTP 429.* asked for 20 s/),
      ]);

      // After its Retry-After, a 5xx without one: 503 with the default, one call per request.
      env.as.failIntrospection(502);
      await later(21_000, async () => {
        for (const opaque of [first, second]) {
          const failed = await list(opaque);
          expect(failed.status).toBe(503);
          expect(failed.headers['retry-after']).toBe('30');
        }
      });
      expect(env.as.introspections() - before).toBe(3);
      expect(warnings()).toHaveLength(1);

      // A minute after the first warning, the next one says how many were kept back.
      await later(61_000, async () => {
        expect((await list(first)).status).toBe(503);
      });
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]).toMatch(/answered HTTP 502.*\(5 more refusal\(s\) for this reason/);

      env.as.failIntrospection(undefined);
      await later(62_000, async () => {
        expect((await list(second)).status).toBe(200);
      });
    });
  });
});

describe.each(ADAPTERS)('token introspection with two authorization servers, on %s', (adapter) => {
  /** Issues JWT access tokens; has an introspection endpoint too. */
  let jwtIssuer: RunningAuthorizationServer;
  /** Issues the opaque tokens, and introspects them. */
  let opaqueIssuer: RunningAuthorizationServer;
  let running: OAuthApp;
  let resource: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    jwtIssuer = await startAuthorizationServer({ resource });
    opaqueIssuer = await startAuthorizationServer({ opaqueResources: [resource] });
    running = await startOAuthApp({
      adapter,
      port,
      logger: logs,
      mcp: {
        auth: {
          authorizationServers: [jwtIssuer.issuer, opaqueIssuer.issuer],
          resource,
          introspection: { issuer: opaqueIssuer.issuer, ...CREDENTIALS },
        },
      },
    });
  });

  afterAll(async () => {
    await running?.close();
    await jwtIssuer?.close();
    await opaqueIssuer?.close();
  });

  const list = (token: string) =>
    modernRequest(running.app, '/mcp', 'tools/list', {}, { Authorization: `Bearer ${token}` });

  it('sends an opaque token to the issuer introspection is configured for, never to the other', async () => {
    const opaque = await opaqueIssuer.clientCredentialsToken('catalog.read', { resource });
    expect(opaque).not.toContain('.');
    expect((await list(opaque)).status).toBe(200);
    expect((await list('garbage-0123456789')).status).toBe(401);
    expect(opaqueIssuer.introspections()).toBe(2);
    expect(jwtIssuer.introspections()).toBe(0);
    // The JWTs of the other issuer are still verified locally.
    expect((await list(await jwtIssuer.clientCredentialsToken('catalog.read'))).status).toBe(200);
    expect(jwtIssuer.introspections()).toBe(0);
  });

  it('refuses to start with two issuers and no introspection.issuer, naming the option', async () => {
    await expect(
      startOAuthApp({
        adapter,
        port: await freePort(),
        logger: logs,
        mcp: {
          auth: {
            authorizationServers: [jwtIssuer.issuer, opaqueIssuer.issuer],
            resource,
            introspection: CREDENTIALS,
          },
        },
      }),
    ).rejects.toThrow(
      /"auth\.introspection\.issuer" must name the authorization server whose opaque tokens are introspected/,
    );
  });
});
