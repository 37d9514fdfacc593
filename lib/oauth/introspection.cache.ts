import { createHash } from 'node:crypto';
import type { TokenClaims } from './auth-info.factory.js';

/** How many answers are kept at most; the least recently used go first. */
export const INTROSPECTION_CACHE_ENTRIES = 10_000;
/** How long an inactive answer (revoked, expired, unknown, garbage) is kept. */
export const INACTIVE_ANSWER_TTL_MS = 10_000;

interface Entry {
  readonly claims: TokenClaims;
  readonly until: number;
}

/**
 * The introspection answers (RFC 7662 §2.2) of recent tokens, so that a token used on
 * every request costs one call to the authorization server per `ttlMs`, and a garbage
 * token repeated costs one call per 10 seconds. RFC 7662 §4 lets the protected resource
 * cache answers, trading how soon a revocation is seen for fewer calls: an active answer
 * is kept until the token's `exp` or `ttlMs`, whichever comes first. Keyed by a SHA-256
 * of the token, never the token itself; bounded in size (least recently used first out).
 */
export class IntrospectionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = INTROSPECTION_CACHE_ENTRIES,
  ) {}

  /** The key of a token: what the cache holds in its place. */
  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get(key: string, now = Date.now()): TokenClaims | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= now) return undefined;
    this.entries.set(key, entry);
    return entry.claims;
  }

  set(key: string, claims: TokenClaims, now = Date.now()): void {
    const until = this.until(claims, now);
    if (until <= now) return;
    this.entries.delete(key);
    this.entries.set(key, { claims, until });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private until(claims: TokenClaims, now: number): number {
    if (claims.active !== true) return now + INACTIVE_ANSWER_TTL_MS;
    const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : Infinity;
    return Math.min(now + this.ttlMs, exp);
  }
}
