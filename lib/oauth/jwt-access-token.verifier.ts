import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import type { TokenClaims } from './auth-info.factory.js';
import {
  AuthorizationServerMetadataLoader,
  sameIssuer,
} from './authorization-server-metadata.loader.js';
import { OAuthChallengeError, VerifierUnavailableError } from './oauth-challenge.error.js';
import { oauthMessages } from './oauth.messages.js';

/** How the JWT access tokens of the trusted authorization servers are checked. */
export interface JwtVerifierOptions {
  readonly authorizationServers: readonly string[];
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
  /** Compared without `application/` and case. */
  readonly tokenTypes: readonly string[];
  /**
   * How long after fetching an issuer's keys a token naming an unknown key waits before they
   * are fetched again (jose's `cooldownDuration`), so hostile tokens cannot flood the issuer.
   * @default 30000
   */
  readonly keysCooldownMs?: number;
}

/** A verified token: its claims, and the audience it was accepted for. */
export interface VerifiedToken {
  readonly claims: TokenClaims;
  readonly audience: string;
}

const invalid = OAuthChallengeError.invalidToken;
const tokenType = (typ: string) => typ.toLowerCase().replace(/^application\//, '');

/** A JWS in compact form: three base64url parts (an opaque token is anything else). */
export const looksLikeJwt = (token: string): boolean =>
  /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token) && token.startsWith('eyJ');

/**
 * Verifies JWT access tokens (RFC 9068) with `jose`: the issuer must be trusted, the keys
 * are the issuer's JWKS (from its RFC 8414 or OpenID metadata `jwks_uri`, cached and
 * fetched again when a token names a key it has not seen: key rotation), the signature
 * must use an allowed asymmetric algorithm, the audience must be this resource (RFC 8707),
 * `exp` must be there and `exp`/`nbf` hold within the clock tolerance.
 *
 * What is checked before any key is fetched (algorithm, type, issuer) is checked on the
 * unverified token, so a hostile token costs no request to the authorization server.
 */
export class JwtAccessTokenVerifier {
  private readonly keySets = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>();
  private readonly allowedTypes: ReadonlySet<string>;

  constructor(
    private readonly options: JwtVerifierOptions,
    private readonly metadata = new AuthorizationServerMetadataLoader(),
  ) {
    this.allowedTypes = new Set(options.tokenTypes.map(tokenType));
  }

  async verify(token: string, audience: readonly string[]): Promise<VerifiedToken> {
    const { header, unverified } = this.decode(token);
    this.checkHeader(header);
    const issuer = this.trustedIssuer(unverified.iss);
    const keys = await this.keysOf(issuer);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: unverified.iss,
        audience: [...audience],
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockToleranceSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw this.refusal(error, audience);
    }
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    return {
      claims: payload as TokenClaims,
      audience: audience.find((candidate) => audiences.includes(candidate)) ?? audience[0],
    };
  }

  private decode(token: string): { header: ProtectedHeaderParameters; unverified: JWTPayload } {
    try {
      return { header: decodeProtectedHeader(token), unverified: decodeJwt(token) };
    } catch {
      throw invalid(oauthMessages.notAJwt());
    }
  }

  private checkHeader(header: ProtectedHeaderParameters): void {
    const { alg, typ } = header;
    if (typeof alg !== 'string' || !this.options.algorithms.includes(alg)) {
      throw invalid(oauthMessages.algorithmRefused(String(alg), this.options.algorithms));
    }
    if (typ !== undefined && !this.allowedTypes.has(tokenType(String(typ)))) {
      throw invalid(oauthMessages.typeRefused(String(typ), this.options.tokenTypes));
    }
  }

  private trustedIssuer(iss: unknown): string {
    const trusted = this.options.authorizationServers;
    const issuer =
      typeof iss === 'string' ? trusted.find((candidate) => sameIssuer(candidate, iss)) : undefined;
    if (!issuer) throw invalid(oauthMessages.untrustedIssuer(String(iss ?? ''), trusted));
    return issuer;
  }

  private keysOf(issuer: string): Promise<ReturnType<typeof createRemoteJWKSet>> {
    let keys = this.keySets.get(issuer);
    if (!keys) {
      keys = this.metadata.load(issuer).then((metadata) => {
        if (!metadata.jwks_uri) {
          throw new VerifierUnavailableError(`the metadata of ${issuer} names no jwks_uri`);
        }
        return createRemoteJWKSet(new URL(metadata.jwks_uri), {
          cooldownDuration: this.options.keysCooldownMs ?? 30_000,
        });
      });
      this.keySets.set(issuer, keys);
      keys.catch(() => this.keySets.delete(issuer));
    }
    return keys;
  }

  /** The jose error as the client should read it; a JWKS that cannot be fetched is ours. */
  private refusal(error: unknown, audience: readonly string[]): Error {
    if (error instanceof errors.JWTExpired) return invalid(oauthMessages.expired());
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'aud') return invalid(oauthMessages.wrongAudience(audience));
      if (error.claim === 'nbf') return invalid(oauthMessages.notYetValid());
      if (error.claim === 'exp') return invalid(oauthMessages.noExpiry());
      return invalid(oauthMessages.invalidClaims(`${error.claim}: ${error.message}`));
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return invalid(oauthMessages.badSignature());
    }
    if (error instanceof errors.JWKSNoMatchingKey) return invalid(oauthMessages.unknownKey());
    if (error instanceof errors.JOSEAlgNotAllowed) {
      return invalid(oauthMessages.algorithmRefused('an algorithm', this.options.algorithms));
    }
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
      return new VerifierUnavailableError(error.message);
    }
    if (error instanceof errors.JOSEError) return invalid(oauthMessages.refused(error.message));
    // fetch() of the JWKS failed (connection refused, DNS): the token is not at fault.
    return new VerifierUnavailableError((error as Error)?.message ?? String(error));
  }
}
