import { VerifierUnavailableError } from './oauth-challenge.error.js';

/** The parts of RFC 8414 / OpenID Provider metadata the resource server reads. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

/** How long a loaded document is trusted before it is loaded again. */
const METADATA_TTL_MS = 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5000;

/** Issuers compare without one trailing slash (`https://tenant.auth0.com/` is common). */
export const sameIssuer = (a: string, b: string): boolean =>
  a.replace(/\/$/, '') === b.replace(/\/$/, '');

/**
 * Where an issuer's metadata may be, in the order MCP clients try them (MCP
 * `basic/authorization`, "Authorization Server Metadata Discovery"): RFC 8414 with the
 * path inserted, then OpenID Connect Discovery inserted and appended.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const at = (pathname: string) => `${url.origin}${pathname}`;
  if (path === '') {
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  }
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * Loads and caches the metadata of the trusted authorization servers. A document must
 * name the issuer it was asked for (RFC 8414 §3.3), or a server could pass off another's
 * keys. A failure is not cached: the next token tries again.
 */
export class AuthorizationServerMetadataLoader {
  private readonly cache = new Map<
    string,
    { loaded: Promise<AuthorizationServerMetadata>; at: number }
  >();

  constructor(private readonly fetchFn: typeof fetch = (...args) => fetch(...args)) {}

  load(issuer: string): Promise<AuthorizationServerMetadata> {
    const cached = this.cache.get(issuer);
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.loaded;
    const loaded = this.fetchMetadata(issuer);
    this.cache.set(issuer, { loaded, at: Date.now() });
    loaded.catch(() => this.cache.delete(issuer));
    return loaded;
  }

  private async fetchMetadata(issuer: string): Promise<AuthorizationServerMetadata> {
    const failures: string[] = [];
    for (const url of metadataUrls(issuer)) {
      let response: Response;
      try {
        response = await this.fetchFn(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
      } catch (error) {
        failures.push(`${url}: ${(error as Error).message}`);
        continue;
      }
      if (!response.ok) {
        failures.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const document = (await response.json().catch(() => undefined)) as
        Partial<AuthorizationServerMetadata> | undefined;
      if (typeof document?.issuer !== 'string' || !sameIssuer(document.issuer, issuer)) {
        failures.push(`${url}: names the issuer ${JSON.stringify(document?.issuer)}`);
        continue;
      }
      return document as AuthorizationServerMetadata;
    }
    throw new VerifierUnavailableError(failures.join('; '));
  }
}
