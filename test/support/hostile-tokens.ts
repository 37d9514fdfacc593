import { base64url, generateKeyPair, SignJWT } from 'jose';
import {
  claimsOf,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from './authorization-server.js';

/** The tokens a resource server must refuse with 401, each named for the test title. */
export const HOSTILE_TOKEN_NAMES = [
  'expired',
  'not yet valid (nbf)',
  'from another authorization server',
  'naming another issuer, signed with the trusted key',
  'for another audience',
  'issued for another resource',
  'alg none',
  'HS256 signed with the public key as the secret',
  'tampered payload',
  'signed by a key the issuer never published',
] as const;

export type HostileTokenName = (typeof HOSTILE_TOKEN_NAMES)[number];

const now = () => Math.floor(Date.now() / 1000);
const encode = (value: object) => base64url.encode(JSON.stringify(value));

/**
 * One token for each of {@link HOSTILE_TOKEN_NAMES}, made from a real `catalog.read` token
 * of `trusted` for `resource`, so each differs from a good token in one respect only.
 * `otherResource` must be a resource `trusted` issues tokens for (`otherResources` or
 * `allowResource`). A second authorization server is started for the foreign token and
 * closed before this returns.
 */
export async function hostileTokens(
  trusted: RunningAuthorizationServer,
  { resource, otherResource }: { resource: string; otherResource: string },
): Promise<Record<HostileTokenName, string>> {
  const good = await trusted.clientCredentialsToken('catalog.read', { resource });
  const claims = claimsOf(good);
  const [header, , signature] = good.split('.');

  const foreign = await startAuthorizationServer({ resource });
  const fromForeign = await foreign
    .clientCredentialsToken('catalog.read catalog.write')
    .finally(() => foreign.close());

  const stranger = await generateKeyPair('RS256');
  const strangerToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: trusted.jwks.keys[0]!.kid })
    .sign(stranger.privateKey);

  const hmacWithPublicKey = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: trusted.jwks.keys[0]!.kid })
    .sign(new TextEncoder().encode(trusted.publicKeyPem));

  return {
    expired: await trusted.signAccessToken({ ...claims, iat: now() - 7200, exp: now() - 3600 }),
    'not yet valid (nbf)': await trusted.signAccessToken({
      ...claims,
      iat: now(),
      nbf: now() + 3600,
      exp: now() + 7200,
    }),
    'from another authorization server': fromForeign,
    'naming another issuer, signed with the trusted key': await trusted.signAccessToken({
      ...claims,
      iss: 'https://issuer.attacker.example',
    }),
    'for another audience': await trusted.signAccessToken({
      ...claims,
      aud: 'https://elsewhere.example/mcp',
    }),
    'issued for another resource': await trusted.clientCredentialsToken(
      'catalog.read catalog.write',
      { resource: otherResource },
    ),
    'alg none': `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode({
      ...claims,
      scope: 'catalog.read catalog.write',
    })}.`,
    'HS256 signed with the public key as the secret': hmacWithPublicKey,
    'tampered payload': `${header}.${encode({ ...claims, scope: 'catalog.read catalog.write' })}.${signature}`,
    'signed by a key the issuer never published': strangerToken,
  };
}
