import { OAuthChallengeError } from './oauth-challenge.error.js';
import { oauthMessages } from './oauth.messages.js';

/** The parts of a request (Node, Express, Fastify, or the stdio caller) a token is read from. */
export interface TokenCarrier {
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly url?: string;
}

/** RFC 6750 §2.1 `b64token`. */
const B64TOKEN = /^[\w.~+/-]+=*$/;

/**
 * The bearer token of a request, from the `Authorization` header only (the metadata says
 * `bearer_methods_supported: ["header"]`); `undefined` when there is none. A token in the
 * query string (RFC 6750 §2.3, which the MCP spec forbids: it ends up in logs) or a
 * malformed header is refused with `invalid_token`.
 */
export function extractBearerToken(request: TokenCarrier): string | undefined {
  const query = request.url?.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  if (query && new URLSearchParams(query).has('access_token')) {
    throw OAuthChallengeError.invalidToken(oauthMessages.tokenInQuery());
  }
  const header = request.headers?.authorization;
  if (header === undefined || header === '') return undefined;
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  const match = value === undefined ? null : /^Bearer +(\S+) *$/i.exec(value);
  if (!match || !B64TOKEN.test(match[1])) {
    throw OAuthChallengeError.invalidToken(oauthMessages.malformedHeader());
  }
  return match[1];
}
