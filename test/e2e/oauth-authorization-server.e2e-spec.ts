import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  type OAuthApp,
  READ_TOOLS,
  startOAuthApp,
  WRITE_TOOLS,
} from '../fixtures/oauth.fixture.js';
import {
  claimsOf,
  DEFAULT_CLIENT,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from '../support/authorization-server.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS } from '../support/fixture-app.js';
import {
  HOSTILE_TOKEN_NAMES,
  type HostileTokenName,
  hostileTokens,
} from '../support/hostile-tokens.js';
import { CLIENTS } from '../support/mcp-clients.js';
import { modernRequest } from '../support/mcp-post.js';
import { challengeOf } from '../support/oauth-clients.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

/** A resource the authorization server also issues tokens for: another MCP server. */
const OTHER_RESOURCE = 'https://other-mcp.example/mcp';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');
const sorted = (names: string[]) => names.toSorted();

describe.each(ADAPTERS)(
  'an OAuth resource server with a real authorization server, on %s',
  (adapter) => {
    let as: RunningAuthorizationServer;
    let running: OAuthApp;
    let resource: string;
    let metadataUrl: string;
    let readToken: string;
    let fullToken: string;

    const post = (
      method: string,
      params: Record<string, unknown> = {},
      headers = {},
      path = '/mcp',
    ) => modernRequest(running.app, path, method, params, headers);

    beforeAll(async () => {
      const port = await freePort();
      resource = `http://127.0.0.1:${port}/mcp`;
      metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      as = await startAuthorizationServer({ resource, otherResources: [OTHER_RESOURCE] });
      running = await startOAuthApp({
        adapter,
        port,
        logger: logs,
        mcp: { auth: { authorizationServers: [as.issuer], resource } },
      });
      readToken = await as.clientCredentialsToken('catalog.read');
      fullToken = await as.clientCredentialsToken('catalog.read catalog.write');
    });

    afterAll(async () => {
      await running?.close();
      await as?.close();
    });

    describe('discovery', () => {
      it('answers a request without a token with 401 and a challenge naming the metadata', async () => {
        const res = await post('tools/list');
        expect(res.status).toBe(401);
        const challenge = challengeOf(res.headers['www-authenticate']);
        expect(challenge.scheme).toBe('Bearer');
        expect(challenge.params.resource_metadata).toBe(metadataUrl);
        // No token was sent: nothing was invalid (RFC 6750 §3.1).
        expect(challenge.params.error).toBeUndefined();
      });

      it('publishes the metadata (RFC 9728) path-inserted and at the root, naming the issuer', async () => {
        const expected = {
          resource,
          authorization_servers: [as.issuer],
          scopes_supported: ['catalog.read', 'catalog.write'],
          bearer_methods_supported: ['header'],
        };
        for (const url of [
          metadataUrl,
          new URL('/.well-known/oauth-protected-resource', resource),
        ]) {
          const response = await fetch(url);
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          const metadata = await response.json();
          expect({ ...metadata, scopes_supported: sorted(metadata.scopes_supported) }).toEqual(
            expected,
          );
        }
      });

      it('leads a client from the 401 to the issuer, its token endpoint, a token and the call', async () => {
        const challenge = challengeOf((await post('tools/list')).headers['www-authenticate']);
        const metadata = await (await fetch(challenge.params.resource_metadata!)).json();
        const issuer = metadata.authorization_servers[0];
        const server = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
        expect(server.issuer).toBe(issuer);

        const tokenResponse = await fetch(server.token_endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT.clientId}:${DEFAULT_CLIENT.clientSecret}`).toString('base64')}`,
          },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            scope: metadata.scopes_supported.join(' '),
            resource: metadata.resource,
          }),
        });
        const { access_token } = await tokenResponse.json();
        const res = await post('tools/list', {}, bearer(access_token));
        expect(res.status).toBe(200);
        expect(sorted(res.body.result.tools.map((tool: { name: string }) => tool.name))).toEqual(
          sorted([...READ_TOOLS, ...WRITE_TOOLS]),
        );
      });
    });

    describe.each(CLIENTS)('scopes, $era with a bearer header', ({ connect }) => {
      it('lists and calls only the read tools with a catalog.read token', async () => {
        const client = await connect(running.url, readToken);
        try {
          expect(sorted((await client.listTools()).tools.map((tool) => tool.name))).toEqual(
            sorted(READ_TOOLS),
          );
          expect(textOf(await client.callTool('list_products', {}))).toContain('tea');
          await expect(client.callTool('add_product', { name: 'biscuits' })).rejects.toThrow(
            /403|insufficient.scope|forbidden/i,
          );
        } finally {
          await client.close();
        }
      });

      it('calls the write tools with a catalog.write token', async () => {
        const client = await connect(running.url, fullToken);
        try {
          expect(textOf(await client.callTool('add_product', { name: 'biscuits' }))).toBe(
            'added biscuits',
          );
          expect(textOf(await client.callTool('list_products', {}))).toContain('biscuits');
          expect(textOf(await client.callTool('remove_product', { name: 'biscuits' }))).toBe(
            'removed biscuits',
          );
        } finally {
          await client.close();
        }
      });
    });

    describe('step-up', () => {
      it('answers a write call with a read token with 403 naming catalog.write, and a token with it succeeds', async () => {
        const refused = await post(
          'tools/call',
          { name: 'add_product', arguments: { name: 'jam' } },
          bearer(readToken),
        );
        expect(refused.status).toBe(403);
        const challenge = challengeOf(refused.headers['www-authenticate']);
        expect(challenge).toEqual({
          scheme: 'Bearer',
          params: expect.objectContaining({
            error: 'insufficient_scope',
            scope: 'catalog.write',
            resource_metadata: metadataUrl,
          }),
        });

        const stepped = await as.clientCredentialsToken(
          [
            ...claimsOf(readToken).scope!.toString().split(' '),
            ...challenge.params.scope!.split(' '),
          ].join(' '),
        );
        const accepted = await post(
          'tools/call',
          { name: 'add_product', arguments: { name: 'jam' } },
          bearer(stepped),
        );
        expect(accepted.status).toBe(200);
        expect(textOf(accepted.body.result)).toBe('added jam');
      });

      it('answers a prompt and a read refused by @McpScopes with the same 403 challenge', async () => {
        for (const [method, params, name] of [
          ['prompts/get', { name: 'restock_plan' }, 'restock_plan'],
          ['resources/read', { uri: 'catalog://prices' }, 'catalog://prices'],
        ] as const) {
          const named = (token: string) => ({ ...bearer(token), 'Mcp-Name': name });
          const refused = await post(method, params, named(readToken));
          expect(refused.status).toBe(403);
          expect(challengeOf(refused.headers['www-authenticate']).params).toMatchObject({
            error: 'insufficient_scope',
            scope: 'catalog.write',
            resource_metadata: metadataUrl,
          });
          expect((await post(method, params, named(fullToken))).status).toBe(200);
        }
      });

      it('keeps leaving out of tools/list what the token cannot call (no 403 for a list)', async () => {
        const res = await post('tools/list', {}, bearer(readToken));
        expect(res.status).toBe(200);
        expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).not.toContain(
          'add_product',
        );
      });
    });

    describe('the verified identity', () => {
      it("reaches the tool as the SDK's AuthInfo on request.auth, with the token's scopes", async () => {
        const res = await post(
          'tools/call',
          { name: 'who_am_i', arguments: {} },
          bearer(readToken),
        );
        expect(res.status).toBe(200);
        const seen = JSON.parse(textOf(res.body.result));
        const claims = claimsOf(readToken);
        expect(seen.auth).toEqual({
          clientId: DEFAULT_CLIENT.clientId,
          scopes: ['catalog.read'],
          expiresAt: claims.exp,
          resource,
          tokenIsTheBearer: true,
          sub: claims.sub,
        });
        expect(seen.scopes).toEqual(['catalog.read']);
        expect(seen.user).toBeDefined();
      });
    });

    describe('hostile tokens', () => {
      let tokens: Record<HostileTokenName, string>;

      beforeAll(async () => {
        tokens = await hostileTokens(as, { resource, otherResource: OTHER_RESOURCE });
      });

      it.each(HOSTILE_TOKEN_NAMES)(
        'refuses a token %s with 401, and keeps serving',
        async (name) => {
          const refused = await post(
            'tools/call',
            { name: 'list_products', arguments: {} },
            bearer(tokens[name]),
          );
          expect(refused.status).toBe(401);
          expect(challengeOf(refused.headers['www-authenticate'])).toEqual({
            scheme: 'Bearer',
            params: expect.objectContaining({
              error: 'invalid_token',
              resource_metadata: metadataUrl,
            }),
          });
          const served = await post(
            'tools/call',
            { name: 'list_products', arguments: {} },
            bearer(readToken),
          );
          expect(served.status).toBe(200);
          expect(textOf(served.body.result)).toContain('tea');
        },
      );

      it('never runs a write tool for a token whose payload was rewritten to claim catalog.write', async () => {
        const refused = await post(
          'tools/call',
          { name: 'add_product', arguments: { name: 'forged' } },
          bearer(tokens['tampered payload']),
        );
        expect(refused.status).toBe(401);
        const list = await post(
          'tools/call',
          { name: 'list_products', arguments: {} },
          bearer(readToken),
        );
        expect(textOf(list.body.result)).not.toContain('forged');
      });

      it('refuses a token that is no JWT at all with 401 invalid_token', async () => {
        const refused = await post('tools/list', {}, bearer('not-a-jwt'));
        expect(refused.status).toBe(401);
        expect(challengeOf(refused.headers['www-authenticate']).params.error).toBe('invalid_token');
        expect((await post('tools/list', {}, bearer(readToken))).status).toBe(200);
      });

      it('refuses a good token sent in the query string, and keeps serving it in the header', async () => {
        const path = `/mcp?access_token=${encodeURIComponent(fullToken)}`;
        const refused = await post('tools/list', {}, {}, path);
        expect(refused.status).toBe(401);
        expect(challengeOf(refused.headers['www-authenticate']).params.resource_metadata).toBe(
          metadataUrl,
        );
        expect((await post('tools/list', {}, bearer(fullToken))).status).toBe(200);
      });
    });
  },
);
