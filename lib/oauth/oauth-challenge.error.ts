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

/**
 * The authorization server could not be asked (its metadata, keys or introspection
 * endpoint did not answer): the token is neither valid nor invalid, so the answer is 503,
 * not a 401 that would send the client to get a token it already has.
 */
export class VerifierUnavailableError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'VerifierUnavailableError';
  }
}
