import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthChallengeError, UnservedHostError } from '../../lib/oauth/oauth-challenge.error.js';
import { OAuthResourceServer } from '../../lib/oauth/oauth-resource.server.js';
import { TokenIssuer } from './token-issuer.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const request = (token?: string, extra: Record<string, unknown> = {}) => ({
  headers: { host: 'mcp.example.com', ...(token && { authorization: `Bearer ${token}` }) },
  url: '/mcp',
  ...extra,
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as OAuthChallengeError,
  );

describe('OAuthResourceServer with the JWT verifier', () => {
  let issuer: TokenIssuer;
  let server: OAuthResourceServer;

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    server = new OAuthResourceServer({
      authorizationServers: [issuer.issuer],
      resource: RESOURCE,
      requiredScopes: ['mcp'],
    });
  });
  afterAll(() => issuer.close());

  it('turns a valid token into the SDK AuthInfo', async () => {
    const token = await issuer.mint(RESOURCE, { scope: 'mcp catalog.read' });
    const auth = await server.authenticate(request(token));
    expect(auth).toMatchObject({
      token,
      clientId: 'test-client',
      scopes: ['mcp', 'catalog.read'],
      resource: new URL(RESOURCE),
      resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      extra: { claims: { sub: 'user-1', iss: issuer.issuer } },
    });
    expect(typeof auth.expiresAt).toBe('number');
  });

  it('accepts the resource with a trailing slash in aud', async () => {
    const token = await issuer.mint(`${RESOURCE}/`, { scope: 'mcp' });
    await expect(server.authenticate(request(token))).resolves.toMatchObject({ scopes: ['mcp'] });
  });

  it('refuses a token without the required scopes with 403 naming them', async () => {
    const error = await caught(
      server.authenticate(request(await issuer.mint(RESOURCE, { scope: 'catalog.read' }))),
    );
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope', scopes: ['mcp'] });
    expect(server.challengeOf(error, request())).toBe(
      'Bearer error="insufficient_scope", error_description="This request needs the scope(s) mcp; ' +
        'the token has catalog.read: request a token with them", scope="mcp", ' +
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('answers a request without a token with 401 and no error code', async () => {
    const error = await caught(server.authenticate(request()));
    expect(error).toMatchObject({ status: 401, code: undefined });
    expect(server.challengeOf(error, request())).toBe(
      'Bearer scope="mcp", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('names every scope an operation needs, with the required ones, or none when it passes', () => {
    expect(server.missingScopes({ all: ['a', 'b'] }, ['mcp', 'a'])).toEqual(['mcp', 'a', 'b']);
    expect(server.missingScopes({ all: ['a', 'b'] }, ['mcp', 'a', 'b'])).toBeUndefined();
    expect(server.missingScopes({ any: ['x', 'y'] }, ['mcp'])).toEqual(['mcp', 'x', 'y']);
    expect(server.missingScopes({ any: ['x', 'y'] }, ['mcp', 'y'])).toBeUndefined();
    expect(server.missingScopes(undefined, [])).toBeUndefined();
  });

  it('derives the resource from a request to a host of http.allowedHosts when it is not set', async () => {
    const derived = new OAuthResourceServer(
      { authorizationServers: [issuer.issuer] },
      {
        routePath: () => '/api/mcp',
        namedScopes: () => ['b', 'a'],
        allowedHosts: ['mcp.example.com'],
      },
    );
    const req = request(undefined, { protocol: 'https', host: 'mcp.example.com:8443' });
    expect(derived.resourceOf(req)).toBe('https://mcp.example.com:8443/api/mcp');
    expect(derived.metadataDocument(req)).toEqual({
      resource: 'https://mcp.example.com:8443/api/mcp',
      authorization_servers: [issuer.issuer],
      scopes_supported: ['b', 'a'],
      bearer_methods_supported: ['header'],
    });
    const token = await issuer.mint('https://mcp.example.com:8443/api/mcp', { scope: 'a' });
    await expect(
      derived.authenticate({ ...req, headers: { authorization: `Bearer ${token}` } }),
    ).resolves.toMatchObject({ scopes: ['a'] });
  });

  it.each([
    ['a Host outside http.allowedHosts', { host: 'other-service.example' }, ['mcp.example.com']],
    [
      'X-Forwarded-Host outside it (the platform host)',
      { host: 'other-service.example', headers: { host: 'mcp.example.com' } },
      ['mcp.example.com'],
    ],
    ['the request, without http.allowedHosts', { host: 'other-service.example' }, undefined],
  ])(
    'never takes the audience from %s: no resource, a 403 before the token is read',
    async (_case, extra, allowedHosts) => {
      const derived = new OAuthResourceServer(
        { authorizationServers: [issuer.issuer] },
        { routePath: () => '/mcp', allowedHosts },
      );
      const token = await issuer.mint('http://other-service.example/mcp', { scope: 'a' });
      const req = {
        url: '/mcp',
        ...extra,
        headers: { authorization: `Bearer ${token}`, ...('headers' in extra && extra.headers) },
      };
      expect(derived.resourceOf(req)).toBeUndefined();
      const refused = await derived.authenticate(req).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(UnservedHostError);
      expect((refused as UnservedHostError).description).toMatch(
        /^This MCP server does not serve the host other-service\.example/,
      );
    },
  );

  it('refuses a token when it has nothing to check the audience against (stdio without resource)', async () => {
    const bare = new OAuthResourceServer({ authorizationServers: [issuer.issuer] });
    const error = await caught(
      bare.authenticate({ headers: { authorization: `Bearer ${await issuer.mint(RESOURCE)}` } }),
    );
    expect(error.description).toBe(
      'A bearer token was given to the stdio transport, but auth has neither resource nor ' +
        'audience to check its aud against: set auth.resource (or auth.audience).',
    );
  });
});

const customServer = (verifyToken: (token: string, request: any) => Promise<any>) =>
  new OAuthResourceServer({
    authorizationServers: ['https://auth.example.com'],
    resource: RESOURCE,
    verifyToken,
  });

const refuse = async (verify: () => Promise<any>) =>
  caught(customServer(verify).authenticate(request('t')));

describe('OAuthResourceServer with verifyToken', () => {
  it('uses what the hook returns, stamped with the metadata URL, and hands it the request', async () => {
    let seen: unknown;
    const auth = await customServer(async (token, req) => {
      seen = req.headers.host;
      return { token, clientId: 'app', scopes: ['s'], expiresAt: Date.now() / 1000 + 60 };
    }).authenticate(request('opaque'));
    expect(seen).toBe('mcp.example.com');
    expect(auth).toMatchObject({
      token: 'opaque',
      clientId: 'app',
      scopes: ['s'],
      resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('maps the hook refusals: an OAuthError, a thrown error, an expired or foreign AuthInfo', async () => {
    expect(
      await refuse(async () => {
        throw new OAuthError(OAuthErrorCode.InsufficientScope, 'needs admin');
      }),
    ).toMatchObject({ status: 403, code: 'insufficient_scope', description: 'needs admin' });
    expect(
      await refuse(async () => {
        throw new Error('unknown token');
      }),
    ).toMatchObject({ status: 401, description: 'The access token was refused: unknown token' });
    expect(
      await refuse(async () => ({ token: 't', clientId: 'c', scopes: [], expiresAt: 1 })),
    ).toMatchObject({ status: 401, description: 'The access token has expired: get a new one' });
    expect(
      await refuse(async () => ({
        token: 't',
        clientId: 'c',
        scopes: [],
        resource: new URL('https://other.example.com/mcp'),
      })),
    ).toMatchObject({ status: 401, code: 'invalid_token' });
  });
});

describe('OAuthResourceServer with token introspection (RFC 7662)', () => {
  let introspection: Server;
  let endpoint: string;
  let lastAuthorization: string | undefined;
  const answers: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    introspection = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        lastAuthorization = req.headers.authorization;
        const token = new URLSearchParams(body).get('token') ?? '';
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answers[token] ?? { active: false }));
      });
    });
    await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
    const now = Math.floor(Date.now() / 1000);
    answers.good = {
      active: true,
      scope: 'catalog.read',
      client_id: 'cli',
      aud: RESOURCE,
      iss: 'https://auth.example.com',
      exp: now + 60,
    };
    answers.foreign = { ...answers.good, aud: 'https://other.example.com' };
    answers.expired = { ...answers.good, exp: now - 3600 };
    answers.untrusted = { ...answers.good, iss: 'https://evil.example.com' };
  });
  afterAll(() => new Promise<void>((resolve) => introspection.close(() => resolve())));

  const server = () =>
    new OAuthResourceServer({
      authorizationServers: ['https://auth.example.com'],
      resource: RESOURCE,
      introspection: { endpoint, clientId: 'mcp server', clientSecret: 's3cret' },
    });

  it('accepts an active token for this resource, authenticating as the client', async () => {
    await expect(server().authenticate(request('good'))).resolves.toMatchObject({
      token: 'good',
      clientId: 'cli',
      scopes: ['catalog.read'],
      resource: new URL(RESOURCE),
    });
    expect(lastAuthorization).toBe(`Basic ${Buffer.from('mcp+server:s3cret').toString('base64')}`);
  });

  it.each([
    ['unknown', 'The access token is not active (expired, revoked or unknown): get a new one'],
    ['foreign', /^The access token was not issued for this resource/],
    ['expired', 'The access token has expired: get a new one'],
    ['untrusted', /^The access token was issued by https:\/\/evil\.example\.com/],
  ])('refuses the %s token with 401', async (token, description) => {
    const error = await caught(server().authenticate(request(token)));
    expect(error.status).toBe(401);
    if (typeof description === 'string') expect(error.description).toBe(description);
    else expect(error.description).toMatch(description);
  });
});
