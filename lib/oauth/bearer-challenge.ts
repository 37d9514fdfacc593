import { headerSafe } from './oauth.messages.js';

/** The OAuth error codes of RFC 6750 §3.1 this server answers with. */
export type BearerErrorCode = 'invalid_token' | 'insufficient_scope';

/** What one `WWW-Authenticate: Bearer` challenge carries. */
export interface BearerChallenge {
  /** Left out when the request carried no token (RFC 6750 §3.1). */
  readonly error?: BearerErrorCode;
  readonly description?: string;
  /** Every scope the request needs (never `offline_access`). */
  readonly scopes?: readonly string[];
  /** The URL of the Protected Resource Metadata (RFC 9728 §5.1). */
  readonly resourceMetadata?: string;
}

/**
 * The scopes a challenge names: each once, in order, without `offline_access` (MCP
 * 2026-07-28: a refresh token is the client's business, never a requirement of an
 * operation).
 */
export function challengeScopes(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())].filter((scope) => scope !== 'offline_access');
}

const quoted = (value: string) => `"${value.replaceAll(/[\\"]/g, String.raw`\$&`)}"`;

/**
 * A `WWW-Authenticate` value with ONE `Bearer` challenge, its parameters in the order the
 * MCP SDK writes them (error, error_description, scope, resource_metadata), so that every
 * challenge of a server reads the same whichever part of it answered.
 */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: string[] = [];
  if (challenge.error) params.push(`error=${quoted(challenge.error)}`);
  if (challenge.error && challenge.description) {
    params.push(`error_description=${quoted(headerSafe(challenge.description))}`);
  }
  const scopes = challengeScopes(challenge.scopes ?? []);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  if (challenge.resourceMetadata) {
    params.push(`resource_metadata=${quoted(headerSafe(challenge.resourceMetadata))}`);
  }
  return params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer';
}
