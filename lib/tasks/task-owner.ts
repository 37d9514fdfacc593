import { createHash } from 'node:crypto';

/** What the default owner reads from a platform request (Express or Fastify). */
interface OwnedRequest {
  readonly auth?: { clientId?: string; extra?: { claims?: Record<string, unknown> } };
  readonly user?: Record<string, unknown>;
  readonly headers?: Record<string, string | string[] | undefined>;
}

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * Who a task belongs to, by default: the verified OAuth principal (`request.auth`, set by
 * the `auth` option's guard: its subject, else its client), else the app's own user
 * (`request.user.id` or `.sub`, as Passport strategies set it), else a hash of the
 * `Authorization` header, else one anonymous owner. Never a session: a task outlives it,
 * and a 2026-07-28 client polls from any connection. Keys are prefixed by their source so
 * that a user id can never equal a client id.
 */
export function defaultTaskOwner(request: unknown): string {
  const { auth, user, headers } = (request ?? {}) as OwnedRequest;
  if (auth) {
    const subject = auth.extra?.claims?.sub;
    if (typeof subject === 'string' && subject !== '') return `oauth-sub:${subject}`;
    if (auth.clientId) return `oauth-client:${auth.clientId}`;
  }
  const userId = user?.id ?? user?.sub;
  if (typeof userId === 'string' || typeof userId === 'number') return `user:${userId}`;
  const authorization = headers?.authorization;
  if (typeof authorization === 'string' && authorization !== '') {
    return `credentials:${hashed(authorization)}`;
  }
  return 'anonymous';
}
