import { describe, expect, it } from 'vitest';
import { INACTIVE_ANSWER_TTL_MS, IntrospectionCache } from '../../lib/oauth/introspection.cache.js';

const NOW = 1_800_000_000_000;
const active = (exp?: number) => ({ active: true, ...(exp !== undefined && { exp }) });

describe('IntrospectionCache', () => {
  it('keys a token by its SHA-256, never the token itself', () => {
    const key = IntrospectionCache.keyOf('opaque-token-0123');
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(key).not.toContain('opaque');
    expect(IntrospectionCache.keyOf('opaque-token-0123')).toBe(key);
  });

  it('keeps an active answer until its exp or the bound, whichever comes first', () => {
    const cache = new IntrospectionCache(60_000);
    cache.set('long', active(NOW / 1000 + 3600), NOW);
    cache.set('short', active(NOW / 1000 + 5), NOW);
    cache.set('no-exp', active(), NOW);
    expect(cache.get('short', NOW + 4_999)).toEqual(active(NOW / 1000 + 5));
    expect(cache.get('short', NOW + 5_000)).toBeUndefined();
    expect(cache.get('long', NOW + 59_999)).toBeDefined();
    expect(cache.get('long', NOW + 60_000)).toBeUndefined();
    expect(cache.get('no-exp', NOW + 60_000)).toBeUndefined();
  });

  it('keeps an inactive answer briefly, even when active ones are not kept', () => {
    const cache = new IntrospectionCache(0);
    cache.set('revoked', { active: false }, NOW);
    cache.set('live', active(NOW / 1000 + 3600), NOW);
    expect(cache.get('live', NOW)).toBeUndefined();
    expect(cache.get('revoked', NOW + INACTIVE_ANSWER_TTL_MS - 1)).toEqual({ active: false });
    expect(cache.get('revoked', NOW + INACTIVE_ANSWER_TTL_MS)).toBeUndefined();
  });

  it('holds at most its size, the least recently used going first', () => {
    const cache = new IntrospectionCache(60_000, 3);
    for (const key of ['a', 'b', 'c']) cache.set(key, active(), NOW);
    expect(cache.get('a', NOW)).toBeDefined();
    cache.set('d', active(), NOW);
    expect(cache.size).toBe(3);
    expect(cache.get('b', NOW)).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(cache.get(key, NOW)).toBeDefined();
  });
});
