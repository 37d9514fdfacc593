import { describe, expect, it } from 'vitest';
import { defaultCallerScopes, toScopeList } from '../../lib/authorization/caller-scopes.js';

describe('caller scopes', () => {
  it.each([
    [{ user: { scopes: ['a', 'b'] } }, ['a', 'b']],
    [{ user: { scope: 'a b  c' } }, ['a', 'b', 'c']],
    [{ auth: { scopes: ['sdk'] } }, ['sdk']],
    [{ user: {} }, []],
    [undefined, []],
  ])('reads %j as %j by default', (request, scopes) => {
    expect(toScopeList(defaultCallerScopes(request))).toEqual(scopes);
  });

  it('drops what is not a string', () => {
    expect(toScopeList(['a', 1, null] as never)).toEqual(['a']);
  });
});
