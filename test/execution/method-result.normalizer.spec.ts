import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { normalizeMethodResult } from '../../lib/execution/method-result.normalizer.js';

const where = 'AuditExtension.recent';

describe('normalizeMethodResult', () => {
  it('answers with the object the method returned, as it is', () => {
    const result = { entries: [{ id: 1 }], nextCursor: 'b' };
    expect(normalizeMethodResult(result, where)).toBe(result);
  });

  it('keeps an empty object, and one without a prototype', () => {
    expect(normalizeMethodResult({}, where)).toEqual({});
    const bare = Object.assign(Object.create(null) as object, { entries: [] });
    expect(normalizeMethodResult(bare, where)).toBe(bare);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('answers {} when the method returned %s', (_what, value) => {
    expect(normalizeMethodResult(value, where)).toEqual({});
  });

  it.each([
    ['a string', 'done', 'a string'],
    ['an empty string', '', 'a string'],
    ['a number', 42, 'a number'],
    ['zero', 0, 'a number'],
    ['false', false, 'a boolean'],
    ['a bigint', 1n, 'a bigint'],
    ['a function', () => ({}), 'a function'],
    ['an array', [{ id: 1 }], 'an array'],
    ['an empty array', [], 'an array'],
    // JSON would send a Date as a string and a Map as {}.
    ['a Date', new Date(0), 'a Date'],
    ['a Map', new Map([['a', 1]]), 'a Map'],
  ])('refuses %s, saying what to return', (_what, value, described) => {
    let thrown: unknown;
    try {
      normalizeMethodResult(value, where);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    const message = (thrown as Error).message;
    expect(message).toBe(
      `${where} returned ${described}: an extension method returns a plain object (its ` +
        `JSON-RPC result), such as { entries }.`,
    );
  });

  it('refuses inputRequired(...), which only the methods of MCP may answer', () => {
    const value = inputRequired({ requestState: 'step-1' });
    expect(() => normalizeMethodResult(value, where)).toThrow(TypeError);
    expect(() => normalizeMethodResult(value, where)).toThrow(
      `${where} returned inputRequired(...), which only MCP's own methods (tools/call, ` +
        `prompts/get, resources/read) may answer: an extension method answers in one round.`,
    );
  });

  it('refuses a hand-built input_required result too', () => {
    expect(() =>
      normalizeMethodResult({ resultType: 'input_required', requestState: 's' }, where),
    ).toThrow(/returned inputRequired\(\.\.\.\)/);
  });

  it('keeps an object with another resultType', () => {
    const value = { resultType: 'complete', entries: [] };
    expect(normalizeMethodResult(value, where)).toBe(value);
  });
});
