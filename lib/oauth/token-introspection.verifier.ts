import type { McpAuthIntrospectionOptions } from '../interfaces/mcp-auth-options.interface.js';
import type { TokenClaims } from './auth-info.factory.js';
import {
  AuthorizationServerMetadataLoader,
  sameIssuer,
} from './authorization-server-metadata.loader.js';
import { IntrospectionCache, INTROSPECTION_CACHE_ENTRIES } from './introspection.cache.js';
import type { VerifiedToken } from './jwt-access-token.verifier.js';
import { OAuthChallengeError, VerifierUnavailableError } from './oauth-challenge.error.js';
import { oauthMessages } from './oauth.messages.js';

const invalid = OAuthChallengeError.invalidToken;
const FETCH_TIMEOUT_MS = 5000;
/** How long an active answer is reused when `cacheTtlSeconds` is not set. */
export const DEFAULT_INTROSPECTION_CACHE_TTL_SECONDS = 60;
/** The longest an authorization server's `Retry-After` is honoured (and passed on). */
const MAX_RETRY_AFTER_SECONDS = 300;

/** `application/x-www-form-urlencoded` of a client credential (RFC 6749 §2.3.1). */
const formEncoded = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');

/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, in whole seconds from
 * now, at most five minutes; `undefined` without a usable value.
 */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  const text = value?.trim() ?? '';
  const seconds = /^\d+$/.test(text) ? Number(text) : Math.ceil((Date.parse(text) - now) / 1000);
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

/**
 * Verifies opaque tokens with the introspection endpoint (RFC 7662) of one authorization
 * server, authenticated as a client with `client_secret_basic`. An opaque token names no
 * issuer (a JWT names it in `iss`, RFC 9068, and is verified locally), so it goes to the
 * one issuer `introspection.issuer` names (the only trusted one by default), never to
 * another: posting it to each would hand one server's tokens, and this server's client
 * secret, to the others. An active answer must name this resource in `aud`, no other
 * issuer in `iss` (optional, RFC 7662 §2.2), and a time window that holds now.
 *
 * Answers are cached (`IntrospectionCache`). A 429 or 5xx of the authorization server is a
 * `VerifierUnavailableError` (503) carrying its `Retry-After`; while that lasts it is not
 * called again, and cached tokens are still served.
 */
export class TokenIntrospectionVerifier {
  /** The authorization server whose tokens are introspected. */
  readonly issuer: string;
  private endpoint?: Promise<string>;
  private readonly cache: IntrospectionCache;
  /** Concurrent requests with one token share one call. */
  private readonly inFlight = new Map<string, Promise<TokenClaims>>();
  private pausedUntil = 0;
  private pauseWarning = '';

  constructor(
    private readonly options: McpAuthIntrospectionOptions,
    authorizationServers: readonly string[],
    private readonly clockToleranceSeconds: number,
    private readonly metadata = new AuthorizationServerMetadataLoader(),
    cacheEntries = INTROSPECTION_CACHE_ENTRIES,
  ) {
    const { issuer } = options;
    const named =
      issuer === undefined
        ? authorizationServers.length === 1
          ? authorizationServers[0]
          : undefined
        : authorizationServers.find((candidate) => sameIssuer(candidate, issuer));
    if (named === undefined) {
      throw new Error('auth.introspection.issuer must name one of auth.authorizationServers');
    }
    this.issuer = named;
    const ttlSeconds = options.cacheTtlSeconds ?? DEFAULT_INTROSPECTION_CACHE_TTL_SECONDS;
    this.cache = new IntrospectionCache(ttlSeconds * 1000, cacheEntries);
  }

  async verify(token: string, audience: readonly string[]): Promise<VerifiedToken> {
    const claims = await this.answerFor(token);
    return { claims, audience: this.check(claims, audience) };
  }

  private answerFor(token: string): Promise<TokenClaims> {
    const key = IntrospectionCache.keyOf(token);
    const cached = this.cache.get(key);
    if (cached) return Promise.resolve(cached);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.introspect(token).then((claims) => {
        this.cache.set(key, claims);
        return claims;
      });
      this.inFlight.set(key, pending);
      const settled = () => this.inFlight.delete(key);
      pending.then(settled, settled);
    }
    return pending;
  }

  private async introspect(token: string): Promise<TokenClaims> {
    const wait = Math.ceil((this.pausedUntil - Date.now()) / 1000);
    if (wait > 0) {
      throw new VerifierUnavailableError(`${this.issuer} asked to be left alone for ${wait} s`, {
        retryAfterSeconds: wait,
        warning: this.pauseWarning,
      });
    }
    const endpoint = await this.endpointUrl();
    const response = await this.post(endpoint, token);
    if (!response.ok) throw this.unavailable(endpoint, response);
    const answer: unknown = await response.json().catch(() => undefined);
    if (
      answer === null ||
      typeof answer !== 'object' ||
      typeof (answer as TokenClaims).active !== 'boolean'
    ) {
      const warning = oauthMessages.introspectionMalformed(endpoint);
      throw new VerifierUnavailableError(warning, { warning });
    }
    return answer as TokenClaims;
  }

  private async post(endpoint: string, token: string): Promise<Response> {
    const { clientId, clientSecret } = this.options;
    const credentials = `${formEncoded(clientId)}:${formEncoded(clientSecret)}`;
    try {
      return await fetch(endpoint, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new VerifierUnavailableError(`${endpoint}: ${(error as Error).message}`);
    }
  }

  /** A refusal of the endpoint; a 429 or 5xx with `Retry-After` pauses the calls that long. */
  private unavailable(endpoint: string, response: Response): VerifierUnavailableError {
    void response.body?.cancel().catch(() => undefined);
    const { status } = response;
    const retryAfter =
      status === 429 || status >= 500
        ? retryAfterSeconds(response.headers.get('retry-after'))
        : undefined;
    const warning = oauthMessages.introspectionUnavailable(endpoint, status, retryAfter);
    if (retryAfter !== undefined && retryAfter > 0) {
      this.pausedUntil = Date.now() + retryAfter * 1000;
      this.pauseWarning = warning;
    }
    return new VerifierUnavailableError(`${endpoint} answered HTTP ${status}`, {
      retryAfterSeconds: retryAfter,
      warning,
    });
  }

  /** @returns the audience the token was issued for */
  private check(claims: TokenClaims, audience: readonly string[]): string {
    if (claims.active !== true) throw invalid(oauthMessages.inactive());
    const { iss, aud, exp, nbf } = claims;
    if (iss !== undefined && !(typeof iss === 'string' && sameIssuer(this.issuer, iss))) {
      throw invalid(oauthMessages.untrustedIssuer(String(iss), [this.issuer]));
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

  /** The configured endpoint, else the `introspection_endpoint` of the issuer's metadata. */
  private endpointUrl(): Promise<string> {
    if (this.options.endpoint) return Promise.resolve(this.options.endpoint);
    this.endpoint ??= this.metadata.load(this.issuer).then((metadata) => {
      if (metadata.introspection_endpoint) return metadata.introspection_endpoint;
      throw new VerifierUnavailableError(oauthMessages.noIntrospectionEndpoint(this.issuer));
    });
    this.endpoint.catch(() => (this.endpoint = undefined));
    return this.endpoint;
  }
}
