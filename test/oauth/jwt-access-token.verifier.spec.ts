import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtAccessTokenVerifier } from '../../lib/oauth/jwt-access-token.verifier.js';
import { OAuthChallengeError } from '../../lib/oauth/oauth-challenge.error.js';
import { DEFAULT_JWT_ALGORITHMS } from '../../lib/options/auth-options.validator.js';
import { hmacWithPublicKey, tamper, TokenIssuer, unsignedToken } from './token-issuer.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';

describe('JwtAccessTokenVerifier against a real JWKS over HTTP', () => {
  let issuer: TokenIssuer;
  let verifier: JwtAccessTokenVerifier;

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    verifier = new JwtAccessTokenVerifier({
      authorizationServers: [issuer.issuer],
      algorithms: DEFAULT_JWT_ALGORITHMS,
      clockToleranceSeconds: 30,
      tokenTypes: ['at+jwt'],
    });
  });
  afterAll(() => issuer.close());

  /** The description of the 401 a token gets. */
  const refusal = async (token: string): Promise<string> => {
    const error = await verifier.verify(token, [RESOURCE]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OAuthChallengeError);
    expect((error as OAuthChallengeError).status).toBe(401);
    expect((error as OAuthChallengeError).code).toBe('invalid_token');
    return (error as OAuthChallengeError).description;
  };

  it('accepts a valid token and returns its claims and the audience it matched', async () => {
    const token = await issuer.mint(RESOURCE, { scope: 'catalog.read catalog.write' });
    const verified = await verifier.verify(token, [RESOURCE]);
    expect(verified.audience).toBe(RESOURCE);
    expect(verified.claims).toMatchObject({
      iss: issuer.issuer,
      sub: 'user-1',
      client_id: 'test-client',
      scope: 'catalog.read catalog.write',
    });
  });

  it('fetches the metadata and the keys once, not per token', async () => {
    const before = { jwks: issuer.jwksRequests, metadata: issuer.metadataRequests };
    for (let i = 0; i < 3; i += 1) await verifier.verify(await issuer.mint(RESOURCE), [RESOURCE]);
    expect(issuer.jwksRequests - before.jwks).toBe(0);
    expect(issuer.metadataRequests - before.metadata).toBe(0);
  });

  it('refuses an expired token, beyond the clock tolerance', async () => {
    expect(await refusal(await issuer.mint(RESOURCE, { expiresIn: -120 }))).toBe(
      'The access token has expired: get a new one',
    );
  });

  it('accepts a token expired by less than the clock tolerance', async () => {
    const token = await issuer.mint(RESOURCE, { expiresIn: -5 });
    await expect(verifier.verify(token, [RESOURCE])).resolves.toMatchObject({
      audience: RESOURCE,
    });
  });

  it('refuses a token that is not valid yet (nbf in the future)', async () => {
    expect(await refusal(await issuer.mint(RESOURCE, { notBefore: 3600 }))).toBe(
      'The access token is not valid yet (nbf is in the future)',
    );
  });

  it('refuses a token of an issuer it does not trust, before fetching anything', async () => {
    const before = issuer.metadataRequests;
    expect(await refusal(await issuer.mint(RESOURCE, { issuer: 'https://evil.example.com' }))).toBe(
      `The access token was issued by https://evil.example.com, which this server does not trust (it trusts ${issuer.issuer})`,
    );
    expect(issuer.metadataRequests).toBe(before);
  });

  it('refuses a token for another resource (RFC 8707 audience)', async () => {
    expect(await refusal(await issuer.mint('https://other.example.com/mcp'))).toBe(
      `The access token was not issued for this resource: its aud must name ${RESOURCE} ` +
        '(request the token with this resource as the resource parameter, RFC 8707)',
    );
  });

  it('refuses alg none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = unsignedToken({ iss: issuer.issuer, aud: RESOURCE, exp: now + 300 });
    expect(await refusal(token)).toMatch(
      /^The access token is signed with none, which this server does not accept/,
    );
  });

  it('refuses HS256 signed with the public key as the secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await hmacWithPublicKey(issuer.publicJwk, {
      iss: issuer.issuer,
      aud: RESOURCE,
      exp: now + 300,
      scope: 'catalog.write',
    });
    expect(await refusal(token)).toMatch(
      /^The access token is signed with HS256, which this server does not accept \(it accepts RS256, /,
    );
  });

  it('refuses a tampered payload', async () => {
    const token = tamper(await issuer.mint(RESOURCE, { scope: 'catalog.read' }), {
      scope: 'catalog.read catalog.write',
    });
    expect(await refusal(token)).toBe('The access token signature does not verify');
  });

  it('refuses a token signed with a key the issuer does not publish', async () => {
    expect(await refusal(await issuer.mint(RESOURCE, { foreignKey: true }))).toBe(
      'The access token signature does not verify',
    );
  });

  it('refuses a token whose typ is not an access token type (an ID token, say)', async () => {
    expect(await refusal(await issuer.mint(RESOURCE, { typ: 'JWT' }))).toBe(
      'The token has typ JWT, which is not an access token type this server accepts (at+jwt); send an access token, not an ID token',
    );
    // `application/at+jwt` is the same type; no typ at all is accepted.
    await expect(
      verifier.verify(await issuer.mint(RESOURCE, { typ: 'application/AT+JWT' }), [RESOURCE]),
    ).resolves.toBeDefined();
    await expect(
      verifier.verify(await issuer.mint(RESOURCE, { typ: null }), [RESOURCE]),
    ).resolves.toBeDefined();
  });

  it('refuses what is not a JWT', async () => {
    expect(await refusal('opaque-token-value')).toMatch(/^The access token is not a JWT/);
  });

  it('follows a key rotation: a token naming a new kid fetches the keys again', async () => {
    const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
    const rotating = new JwtAccessTokenVerifier({
      authorizationServers: [issuer.issuer],
      algorithms: DEFAULT_JWT_ALGORITHMS,
      clockToleranceSeconds: 30,
      tokenTypes: ['at+jwt'],
      keysCooldownMs: 0,
    });
    await rotating.verify(await issuer.mint(RESOURCE), [RESOURCE]);
    const rotated = await generateKeyPair('ES256');
    issuer.keys = [{ ...(await exportJWK(rotated.publicKey)), kid: 'key-2', alg: 'ES256' }];
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ scope: 'catalog.read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'key-2', typ: 'at+jwt' })
      .setIssuer(issuer.issuer)
      .setAudience(RESOURCE)
      .setExpirationTime(now + 300)
      .sign(rotated.privateKey);
    const before = issuer.jwksRequests;
    await expect(rotating.verify(token, [RESOURCE])).resolves.toMatchObject({
      claims: { scope: 'catalog.read' },
    });
    expect(issuer.jwksRequests).toBe(before + 1);
    issuer.keys = [issuer.publicJwk];
  });

  it('refuses a token naming a kid the issuer does not publish', async () => {
    const { generateKeyPair, SignJWT } = await import('jose');
    const unknown = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'key-9', typ: 'at+jwt' })
      .setIssuer(issuer.issuer)
      .setAudience(RESOURCE)
      .setExpirationTime(now + 300)
      .sign(unknown.privateKey);
    expect(await refusal(token)).toBe(
      "No key of the authorization server's JWKS matches the token (kid); get a new token",
    );
  });
});

describe('JwtAccessTokenVerifier discovery', () => {
  it('finds the keys through OpenID discovery when there is no RFC 8414 document', async () => {
    const issuer = await new TokenIssuer().start({ discovery: 'openid' });
    try {
      const verifier = new JwtAccessTokenVerifier({
        authorizationServers: [`${issuer.issuer}/`],
        algorithms: ['ES256'],
        clockToleranceSeconds: 0,
        tokenTypes: ['at+jwt'],
      });
      const verified = await verifier.verify(await issuer.mint(RESOURCE), [RESOURCE]);
      expect(verified.claims.iss).toBe(issuer.issuer);
    } finally {
      await issuer.close();
    }
  });
});
