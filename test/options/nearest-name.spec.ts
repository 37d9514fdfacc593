import { describe, expect, it } from 'vitest';
import { editDistance, maxTypoDistance, nearestName } from '../../lib/options/nearest-name.js';

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['', 'path', 4],
    ['path', '', 4],
    ['guards', 'guards', 0],
    ['kitten', 'sitting', 3],
    ['guard', 'guards', 1],
    ['guardss', 'guards', 1],
    ['guxrds', 'guards', 1],
    // A swap of two neighbours is one edit, not two substitutions.
    ['gaurds', 'guards', 1],
    ['paht', 'path', 1],
    ['ab', 'ba', 1],
    // Optimal string alignment: a swapped pair is not edited again (true Damerau gives 2).
    ['ca', 'abc', 3],
  ])('%j to %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('is case-sensitive (nearestName lower-cases first)', () => {
    expect(editDistance('pagesize', 'pageSize')).toBe(1);
  });
});

describe('maxTypoDistance', () => {
  it('allows about a third of the length, at least one edit', () => {
    expect([1, 3, 4, 6, 9, 12].map((length) => maxTypoDistance('x'.repeat(length)))).toEqual([
      1, 1, 1, 2, 3, 4,
    ]);
  });
});

describe('nearestName', () => {
  const http = ['path', 'guards', 'allowedHosts', 'allowedOrigins', 'maxBodyBytes'];

  it('finds a typo', () => {
    expect(nearestName('gaurds', http)).toBe('guards');
    expect(nearestName('paht', http)).toBe('path');
    expect(nearestName('allowedHost', http)).toBe('allowedHosts');
  });

  it('ignores letter case', () => {
    expect(nearestName('pagesize', ['name', 'pageSize'])).toBe('pageSize');
    expect(nearestName('PATH', http)).toBe('path');
  });

  it('takes the closest candidate, the first one on a tie', () => {
    expect(nearestName('allowedOrigin', http)).toBe('allowedOrigins');
    expect(nearestName('ab', ['ax', 'ay'])).toBe('ax');
  });

  it('makes no guess when nothing is close', () => {
    expect(nearestName('host', http)).toBeUndefined();
    expect(nearestName('foo', http)).toBeUndefined();
    expect(nearestName('zzzzzzzz', http)).toBeUndefined();
    expect(nearestName('path', [])).toBeUndefined();
  });
});
