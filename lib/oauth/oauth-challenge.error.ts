import type { BearerErrorCode } from './bearer-challenge.js';

/**
 * A request the resource server refuses: 401 (no token, or a token that is not valid) or
 * 403 (a valid token without the scopes the request needs), with what the challenge says.
 * `scopes` are the ones the request needs; the resource server adds `resource_metadata`.
 */
export class OAuthChallengeError extends Error {
  constructor(
    readonly status: 401 | 403,
    /** `undefined` when no token was sent: the challenge then carries no error (RFC 6750). */
    readonly code: BearerErrorCode | undefined,
    readonly description: string,
    readonly scopes: readonly string[] = [],
  ) {
    super(description);
    this.name = 'OAuthChallengeError';
  }

  static invalidToken(description: string): OAuthChallengeError {
    return new OAuthChallengeError(401, 'invalid_token', description);
  }
}

/** What a `VerifierUnavailableError` knows beyond its detail. */
export interface VerifierUnavailability {
  /** When to try again, in seconds: the authorization server's own `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** The warning for the app's log, when it is not the one about unreachable metadata. */
  readonly warning?: string;
}

/**
 * The authorization server could not be asked (its metadata, keys or introspection
 * endpoint did not answer, or it asked to be left alone: 429, 5xx): the token is neither
 * valid nor invalid, so the answer is 503 with `Retry-After`, not a 401 that would send the
 * client to get a token it already has.
 */
export class VerifierUnavailableError extends Error {
  /** The `Retry-After` of a 503 when the authorization server named none. */
  static readonly DEFAULT_RETRY_AFTER_SECONDS = 30;

  constructor(
    readonly detail: string,
    readonly unavailability: VerifierUnavailability = {},
  ) {
    super(detail);
    this.name = 'VerifierUnavailableError';
  }

  get retryAfterSeconds(): number {
    return (
      this.unavailability.retryAfterSeconds ?? VerifierUnavailableError.DEFAULT_RETRY_AFTER_SECONDS
    );
  }
}

/**
 * A request to a server whose resource is derived from the request (no `auth.resource`)
 * that names a host outside `http.allowedHosts` (in `Host`, or `X-Forwarded-Host` behind a
 * trusted proxy): no resource, so no audience, can be derived from it. Answered 403.
 */
export class UnservedHostError extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = 'UnservedHostError';
  }
}
