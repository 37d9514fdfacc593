import type { McpAuthIntrospectionOptions } from '../interfaces/mcp-auth-options.interface.js';
import type { TokenClaims } from './auth-info.factory.js';
import {
  AuthorizationServerMetadataLoader,
  sameIssuer,
} from './authorization-server-metadata.loader.js';
import type { VerifiedToken } from './jwt-access-token.verifier.js';
import { OAuthChallengeError, VerifierUnavailableError } from './oauth-challenge.error.js';
import { oauthMessages } from './oauth.messages.js';

const invalid = OAuthChallengeError.invalidToken;
const FETCH_TIMEOUT_MS = 5000;

/** `application/x-www-form-urlencoded` of a client credential (RFC 6749 §2.3.1). */
const formEncoded = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');

/**
 * Verifies opaque tokens with the authorization server's introspection endpoint (RFC
 * 7662), authenticated as a client with `client_secret_basic`. An active token must also
 * name this resource in `aud` and, when it says, a trusted issuer and a time window that
 * holds now.
 */
export class TokenIntrospectionVerifier {
  private endpoint?: Promise<string>;

  constructor(
    private readonly options: McpAuthIntrospectionOptions,
    private readonly authorizationServers: readonly string[],
    private readonly clockToleranceSeconds: number,
    private readonly metadata = new AuthorizationServerMetadataLoader(),
  ) {}

  async verify(token: string, audience: readonly string[]): Promise<VerifiedToken> {
    const endpoint = await this.endpointUrl();
    const { clientId, clientSecret } = this.options;
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new VerifierUnavailableError(`${endpoint}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      throw new VerifierUnavailableError(`${endpoint} answered HTTP ${response.status}`);
    }
    const claims = (await response.json().catch(() => ({}))) as TokenClaims;
    return { claims, audience: this.check(claims, audience) };
  }

  /** @returns the audience the token was issued for */
  private check(claims: TokenClaims, audience: readonly string[]): string {
    if (claims.active !== true) throw invalid(oauthMessages.inactive());
    const { iss, aud, exp, nbf } = claims;
    if (
      iss !== undefined &&
      !this.authorizationServers.some(
        (issuer) => typeof iss === 'string' && sameIssuer(issuer, iss),
      )
    ) {
      throw invalid(oauthMessages.untrustedIssuer(String(iss), this.authorizationServers));
    }
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    const matched = audience.find((candidate) => audiences.includes(candidate));
    if (matched === undefined) throw invalid(oauthMessages.wrongAudience(audience));
    const now = Date.now() / 1000;
    const tolerance = this.clockToleranceSeconds;
    if (typeof exp === 'number' && exp + tolerance <= now) throw invalid(oauthMessages.expired());
    if (typeof nbf === 'number' && nbf - tolerance > now) {
      throw invalid(oauthMessages.notYetValid());
    }
    return matched;
  }

  /** The configured endpoint, else the first `introspection_endpoint` of the servers' metadata. */
  private endpointUrl(): Promise<string> {
    if (this.options.endpoint) return Promise.resolve(this.options.endpoint);
    this.endpoint ??= (async () => {
      for (const issuer of this.authorizationServers) {
        const metadata = await this.metadata.load(issuer).catch(() => undefined);
        if (metadata?.introspection_endpoint) return metadata.introspection_endpoint;
      }
      throw new VerifierUnavailableError(
        oauthMessages.noIntrospectionEndpoint(this.authorizationServers),
      );
    })();
    this.endpoint.catch(() => (this.endpoint = undefined));
    return this.endpoint;
  }
}
