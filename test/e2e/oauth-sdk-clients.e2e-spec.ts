import {
  ClientCredentialsProvider,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { ClientCredentialsProvider as LegacyClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
import { type Exchange, InteractiveOAuthClient, recordingFetch } from '../support/oauth-clients.js';

// The MCP SDK clients' OAuth support, end to end: from the 401 to the Protected Resource
// Metadata, the authorization server's metadata, its token endpoint and the call, with no
// token handed to the client.

const logs = captureLogs();

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name).toSorted();
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');
const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS].toSorted();

/** `METHOD url → status`, with the origin of the MCP server and of the issuer named. */
const pathOf = (exchanges: Exchange[], mcp: URL, issuer: string) =>
  exchanges.map(
    (e) => `${e.method} ${e.url.replace(mcp.origin, 'MCP').replace(issuer, 'AS')} ${e.status}`,
  );

const modernClient = () =>
  new ModernClient(
    { name: 'oauth-e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );

describe.each(ADAPTERS)('the MCP SDK clients authorize themselves, on %s', (adapter) => {
  let as: RunningAuthorizationServer;
  let running: OAuthApp;
  let stepUp: OAuthApp;

  beforeAll(async () => {
    const [port, stepUpPort] = [await freePort(), await freePort()];
    as = await startAuthorizationServer({ resource: `http://127.0.0.1:${port}/mcp` });
    as.allowResource(`http://127.0.0.1:${stepUpPort}/mcp`);
    const auth = (p: number) => ({
      authorizationServers: [as.issuer],
      resource: `http://127.0.0.1:${p}/mcp`,
    });
    running = await startOAuthApp({ adapter, port, logger: logs, mcp: { auth: auth(port) } });
    // An endpoint that needs catalog.read for every request: its 401 names that scope, so a
    // client asks for it alone, and a write call makes it step up.
    stepUp = await startOAuthApp({
      adapter,
      port: stepUpPort,
      logger: logs,
      mcp: { auth: { ...auth(stepUpPort), requiredScopes: ['catalog.read'] } },
    });
  });

  afterAll(async () => {
    await running?.close();
    await stepUp?.close();
    await as?.close();
  });

  it('v2 client, 2026-07-28: client credentials from the 401 to the metadata, the token and the call', async () => {
    const recorder = recordingFetch();
    const client = modernClient();
    await client.connect(
      new ModernTransport(running.url, {
        fetch: recorder.fetch,
        authProvider: new ClientCredentialsProvider({
          clientId: DEFAULT_CLIENT.clientId,
          clientSecret: DEFAULT_CLIENT.clientSecret,
          expectedIssuer: as.issuer,
        }),
      }),
    );
    try {
      expect(names((await client.listTools()).tools)).toEqual(ALL_TOOLS);
      expect(
        textOf(await client.callTool({ name: 'add_product', arguments: { name: 'oat' } })),
      ).toBe('added oat');
      const path = pathOf(recorder.exchanges, running.url, as.issuer);
      expect(path.slice(0, 4)).toEqual([
        'POST MCP/mcp 401',
        'GET MCP/.well-known/oauth-protected-resource/mcp 200',
        'GET AS/.well-known/oauth-authorization-server 200',
        'POST AS/token 200',
      ]);
      // The scopes come from the metadata's scopes_supported, the resource from its resource.
      expect(recorder.exchanges[3]!.form).toEqual({
        grant_type: 'client_credentials',
        scope: 'catalog.read catalog.write',
        resource: running.url.href,
      });
      expect(path.slice(4).every((line) => line.startsWith('POST MCP/mcp 20'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('v1 client, 2025-11-25: client credentials from the 401 to the token and the call', async () => {
    const recorder = recordingFetch();
    const client = new LegacyClient({ name: 'oauth-e2e-v1', version: '1.0.0' });
    await client.connect(
      new LegacyTransport(running.url, {
        fetch: recorder.fetch,
        // The v1 provider asks for the scopes it is configured with (not the metadata's).
        authProvider: new LegacyClientCredentialsProvider({
          clientId: DEFAULT_CLIENT.clientId,
          clientSecret: DEFAULT_CLIENT.clientSecret,
          expectedIssuer: as.issuer,
          scope: 'catalog.read catalog.write',
        }),
      }),
    );
    try {
      expect(names((await client.listTools()).tools as Array<{ name: string }>)).toEqual(ALL_TOOLS);
      expect(
        textOf(await client.callTool({ name: 'remove_product', arguments: { name: 'oat' } })),
      ).toBe('removed oat');
      const path = pathOf(recorder.exchanges, running.url, as.issuer);
      expect(path[0]).toBe('POST MCP/mcp 401');
      expect(path).toContain('GET MCP/.well-known/oauth-protected-resource/mcp 200');
      expect(path).toContain('POST AS/token 200');
      expect(recorder.exchanges.find((e) => e.url === as.tokenEndpoint)!.form).toMatchObject({
        grant_type: 'client_credentials',
        resource: running.url.href,
      });
    } finally {
      await client.close();
    }
  });

  it('v2 client: the 401 names catalog.read, a write call gets 403 and the client steps up to catalog.write', async () => {
    const recorder = recordingFetch();
    const client = modernClient();
    await client.connect(
      new ModernTransport(stepUp.url, {
        fetch: recorder.fetch,
        authProvider: new ClientCredentialsProvider({
          clientId: DEFAULT_CLIENT.clientId,
          clientSecret: DEFAULT_CLIENT.clientSecret,
          expectedIssuer: as.issuer,
        }),
      }),
    );
    try {
      expect(names((await client.listTools()).tools)).toEqual(READ_TOOLS.toSorted());
      expect(
        textOf(await client.callTool({ name: 'add_product', arguments: { name: 'rye' } })),
      ).toBe('added rye');
      const tokenRequests = recorder.exchanges.filter((e) => e.url === as.tokenEndpoint);
      expect(tokenRequests.map((e) => e.form!.scope)).toEqual([
        'catalog.read',
        'catalog.read catalog.write',
      ]);
      const refused = recorder.exchanges.filter((e) => e.status === 403);
      expect(refused).toHaveLength(1);
      expect(names((await client.listTools()).tools)).toEqual(ALL_TOOLS);
    } finally {
      await client.close();
    }
  });

  it('v2 client: authorization code with PKCE, registered dynamically, the redirect driven by the test', async () => {
    const provider = new InteractiveOAuthClient();
    const recorder = recordingFetch();
    const first = new ModernTransport(running.url, {
      fetch: recorder.fetch,
      authProvider: provider,
    });
    await expect(modernClient().connect(first)).rejects.toSatisfy(
      (error) => error instanceof UnauthorizedError || /unauthorized|401/i.test(String(error)),
    );
    const registration = recorder.exchanges.find((e) => e.url === `${as.issuer}/reg`);
    expect(registration?.status).toBe(201);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${as.issuer}/auth`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: provider.registered!.client_id,
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: running.url.href,
    });

    const callback = await as.authorize(authorizationUrl);
    expect(callback.error).toBeNull();
    await first.finishAuth(callback.redirect.searchParams);

    const client = modernClient();
    await client.connect(
      new ModernTransport(running.url, { fetch: recorder.fetch, authProvider: provider }),
    );
    try {
      expect(names((await client.listTools()).tools)).toEqual(ALL_TOOLS);
      const seen = JSON.parse(textOf(await client.callTool({ name: 'who_am_i', arguments: {} })));
      const claims = claimsOf(provider.tokens()!.access_token);
      expect(claims).toMatchObject({ sub: 'ada', aud: running.url.href, iss: as.issuer });
      expect(seen.auth).toMatchObject({
        clientId: provider.registered!.client_id,
        sub: 'ada',
        resource: running.url.href,
      });
    } finally {
      await client.close();
    }
  });
});
