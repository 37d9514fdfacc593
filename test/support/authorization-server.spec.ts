import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimsOf,
  DEFAULT_CLIENT,
  PUBLIC_CLIENT,
  RESOURCE_SERVER_CLIENT,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from './authorization-server.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const OTHER = 'https://other.example/mcp';

describe('the test authorization server (oidc-provider, in-process)', () => {
  let as: RunningAuthorizationServer;

  beforeAll(async () => {
    as = await startAuthorizationServer({ resource: RESOURCE, otherResources: [OTHER] });
  });

  afterAll(() => as?.close());

  it('publishes OpenID discovery naming its JWKS, token and registration endpoints', async () => {
    const metadata = await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata).toMatchObject({
      issuer: as.issuer,
      jwks_uri: as.jwksUri,
      token_endpoint: as.tokenEndpoint,
      registration_endpoint: `${as.issuer}/reg`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials']),
    );
    expect(await (await fetch(as.jwksUri)).json()).toEqual(as.jwks);
  });

  it('issues an RFC 9068 JWT for the resource through client credentials', async () => {
    const token = await as.clientCredentialsToken('catalog.read');
    const { payload, protectedHeader } = await jwtVerify(
      token,
      createRemoteJWKSet(new URL(as.jwksUri)),
      { issuer: as.issuer, audience: RESOURCE, typ: 'at+jwt' },
    );
    expect(protectedHeader).toMatchObject({
      alg: 'RS256',
      typ: 'at+jwt',
      kid: as.jwks.keys[0]!.kid,
    });
    expect(payload).toMatchObject({ scope: 'catalog.read', client_id: DEFAULT_CLIENT.clientId });
    expect(payload.exp! - payload.iat!).toBe(600);
  });

  it('grants only the scopes of the resource server, and one token per resource', async () => {
    const both = claimsOf(
      await as.clientCredentialsToken('catalog.read catalog.write catalog.delete'),
    );
    expect(both.scope).toBe('catalog.read catalog.write');
    const other = claimsOf(await as.clientCredentialsToken('catalog.read', { resource: OTHER }));
    expect(other.aud).toBe(OTHER);
    const unknown = await as.tokenRequest({
      grant_type: 'client_credentials',
      scope: 'catalog.read',
      resource: 'https://unknown.example/mcp',
    });
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('limits a client to its own scopes', async () => {
    const limited = await startAuthorizationServer({
      resource: RESOURCE,
      clients: [
        { clientId: 'reader', clientSecret: 'reader-secret-0123456789', scopes: ['catalog.read'] },
      ],
    });
    try {
      const token = await limited.clientCredentialsToken('catalog.read catalog.write');
      expect(claimsOf(token).scope).toBe('catalog.read');
    } finally {
      await limited.close();
    }
  });

  it('signs tokens of its own making with the key its JWKS publishes', async () => {
    const token = await as.signAccessToken({ iss: as.issuer, aud: RESOURCE, exp: 4102444800 });
    const { protectedHeader } = await jwtVerify(token, createLocalJWKSet(as.jwks), {
      issuer: as.issuer,
      audience: RESOURCE,
      typ: 'at+jwt',
    });
    expect(protectedHeader.kid).toBe(as.jwks.keys[0]!.kid);
  });

  it('rotates its signing key: new tokens name the new kid, the JWKS keeps the old one', async () => {
    const rotating = await startAuthorizationServer({ resource: RESOURCE });
    try {
      const before = await rotating.clientCredentialsToken('catalog.read');
      await rotating.rotateSigningKey();
      const after = await rotating.clientCredentialsToken('catalog.read');
      const published = await (await fetch(rotating.jwksUri)).json();
      expect(published.keys.map((key: { kid: string }) => key.kid)).toEqual([
        'as-rs256-2',
        'as-rs256-1',
      ]);
      const keys = createRemoteJWKSet(new URL(rotating.jwksUri));
      for (const [token, kid] of [
        [before, 'as-rs256-1'],
        [after, 'as-rs256-2'],
      ] as const)
        expect(
          (await jwtVerify(token, keys, { issuer: rotating.issuer })).protectedHeader.kid,
        ).toBe(kid);
    } finally {
      await rotating.close();
    }
  });

  it('runs the authorization code with PKCE headlessly for the public client', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const authorization = new URL(`${as.issuer}/auth`);
    for (const [name, value] of Object.entries({
      client_id: PUBLIC_CLIENT.clientId,
      redirect_uri: PUBLIC_CLIENT.redirectUri,
      response_type: 'code',
      scope: 'catalog.read catalog.write',
      resource: RESOURCE,
      state: 'state-1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      authorization.searchParams.set(name, value);
    const result = await as.authorize(authorization);
    expect(result).toMatchObject({ state: 'state-1', iss: as.issuer, error: null });
    expect(result.code).toEqual(expect.any(String));

    const response = await fetch(as.tokenEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: PUBLIC_CLIENT.clientId,
        code: result.code!,
        redirect_uri: PUBLIC_CLIENT.redirectUri,
        code_verifier: verifier,
        resource: RESOURCE,
      }),
    });
    const body = await response.json();
    expect(response.status).toBe(200);
    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(as.jwks), {
      issuer: as.issuer,
      audience: RESOURCE,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({
      sub: 'ada',
      client_id: PUBLIC_CLIENT.clientId,
      scope: 'catalog.read catalog.write',
    });
  });

  it('issues opaque tokens for an opaque resource, which the resource server introspects', async () => {
    const opaque = await startAuthorizationServer({ opaqueResources: [RESOURCE] });
    const introspect = async (token: string) =>
      (
        await fetch(`${opaque.issuer}/token/introspection`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER_CLIENT.clientId}:${RESOURCE_SERVER_CLIENT.clientSecret}`).toString('base64')}`,
          },
          body: new URLSearchParams({ token }),
        })
      ).json();
    try {
      const token = await opaque.clientCredentialsToken('catalog.read', { resource: RESOURCE });
      expect(token.split('.')).toHaveLength(1);
      expect(await introspect(token)).toMatchObject({
        active: true,
        aud: RESOURCE,
        scope: 'catalog.read',
        client_id: DEFAULT_CLIENT.clientId,
        iss: opaque.issuer,
      });
      await opaque.revoke(token);
      expect(await introspect(token)).toEqual({ active: false });
    } finally {
      await opaque.close();
    }
  });

  it('registers clients dynamically (RFC 7591)', async () => {
    const response = await fetch(`${as.issuer}/reg`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'dcr client',
        redirect_uris: ['http://127.0.0.1:5555/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        scope: 'catalog.read catalog.write',
      }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ client_id: expect.any(String) });
  });
});
