import { createHash } from 'node:crypto';

/** What the default identity reads from a platform request (Express, Fastify, stdio's). */
interface IdentifiedRequest {
  readonly auth?: { clientId?: string; extra?: { claims?: Record<string, unknown> } };
  readonly user?: Record<string, unknown>;
  readonly headers?: Record<string, string | string[] | undefined>;
}

/**
 * Who a request's caller is, as one string: the `identity` option of `McpModule`, or
 * {@link defaultCallerIdentity}. `undefined` from the option falls back to the default.
 */
export type CallerIdentityReader = (request: any) => string | undefined;

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A string part that may hold any character, kept apart from the next one. */
const part = (value: string) => JSON.stringify(value);

/**
 * The caller of a request, by default: the verified OAuth principal (`request.auth`, set by
 * the `auth` option's guard: its issuer and subject, else its issuer and client), else the
 * app's own user (`request.user.id` or `.sub`, as the app's guard or a Passport strategy set
 * it), else a hash of the `Authorization` header, else one anonymous caller. Each is
 * prefixed by its source, so that a user id never equals a client id, and a subject of one
 * authorization server never equals the same subject of another. Never the credentials
 * themselves: the identity is kept with sessions, tasks and queued jobs.
 */
export function defaultCallerIdentity(request: unknown): string {
  const { auth, user, headers } = (request ?? {}) as IdentifiedRequest;
  if (auth) {
    const claims = auth.extra?.claims ?? {};
    const issuer = typeof claims.iss === 'string' ? claims.iss : '';
    if (typeof claims.sub === 'string' && claims.sub !== '') {
      return `oauth-sub:${part(issuer)}:${part(claims.sub)}`;
    }
    if (auth.clientId) return `oauth-client:${part(issuer)}:${part(auth.clientId)}`;
  }
  const userId = user?.id ?? user?.sub;
  if (typeof userId === 'string' || typeof userId === 'number') return `user:${userId}`;
  const authorization = headers?.authorization;
  if (typeof authorization === 'string' && authorization !== '') {
    return `credentials:${hashed(authorization)}`;
  }
  return 'anonymous';
}

/** The identity reader of a server: the option, falling back to the default. */
export function callerIdentityReader(option?: CallerIdentityReader): (request: unknown) => string {
  if (!option) return defaultCallerIdentity;
  return (request) => option(request) ?? defaultCallerIdentity(request);
}
