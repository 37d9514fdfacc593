import type { AuthInfo } from '@modelcontextprotocol/server';

/** Claims of a JWT access token (RFC 9068) or an introspection answer (RFC 7662). */
export type TokenClaims = Record<string, unknown>;

/**
 * The token's scopes: `scope` (RFC 9068, RFC 7662: space-separated), else `scp` (Entra ID
 * writes a string, Okta an array).
 */
export function scopesOf(claims: TokenClaims): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return Array.isArray(value) ? value.filter((scope) => typeof scope === 'string') : [];
}

/**
 * The client the token was issued to: `client_id` (RFC 9068), else what providers put
 * there instead (`azp` in OpenID Connect and Keycloak, `appid`/`azp` in Entra ID, `cid`
 * in Okta).
 */
function clientIdOf(claims: TokenClaims): string {
  for (const claim of ['client_id', 'azp', 'appid', 'cid']) {
    const value = claims[claim];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

const asUrl = (value: string | undefined): URL | undefined => {
  if (value === undefined) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
};

/**
 * The verified token as the MCP SDK's `AuthInfo` (what `ctx.http.authInfo`, `@McpScopes()`
 * and the app's guards read), its claims in `extra.claims`.
 * @param resource the audience the token was accepted for
 */
export function toAuthInfo(
  token: string,
  claims: TokenClaims,
  resource: string | undefined,
  resourceMetadataUrl: string | undefined,
): AuthInfo {
  const url = asUrl(resource);
  return {
    token,
    clientId: clientIdOf(claims),
    scopes: scopesOf(claims),
    ...(typeof claims.exp === 'number' && { expiresAt: claims.exp }),
    ...(url && { resource: url }),
    ...(resourceMetadataUrl && { resourceMetadataUrl }),
    extra: { claims },
  };
}

/**
 * What `request.user` becomes: the token's claims plus `scopes` as a list, which the
 * default `callerScopes` reader and the app's own guards read.
 */
export function userOf(auth: AuthInfo): Record<string, unknown> {
  const claims = (auth.extra?.claims as TokenClaims | undefined) ?? {};
  return { ...claims, clientId: auth.clientId, scopes: auth.scopes };
}
