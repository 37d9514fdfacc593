import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_JSON_DEPTH,
  describeJsonInputProblem,
  findJsonInputProblem,
} from '../../lib/utils/json-input.util.js';

/** `{"a":{"a":…}}` with `levels` objects, built as text and parsed as a client's would be. */
const nested = (levels: number) =>
  JSON.parse('{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1));

describe('findJsonInputProblem', () => {
  it.each([null, 1, 'text', true, [], {}, { a: [1, { b: 'c' }] }])(
    'accepts ordinary JSON: %j',
    (value) => {
      expect(findJsonInputProblem(value)).toBeUndefined();
    },
  );

  it('accepts exactly the maximum depth and refuses one level more, pointing at it', () => {
    expect(findJsonInputProblem(nested(DEFAULT_MAX_JSON_DEPTH))).toBeUndefined();
    const problem = findJsonInputProblem(nested(DEFAULT_MAX_JSON_DEPTH + 1));
    expect(problem).toEqual({
      kind: 'too-deep',
      maxDepth: DEFAULT_MAX_JSON_DEPTH,
      pointer: '/a'.repeat(DEFAULT_MAX_JSON_DEPTH),
    });
  });

  it('counts arrays as levels and honours a custom maximum', () => {
    expect(findJsonInputProblem([[[1]]], 3)).toBeUndefined();
    expect(findJsonInputProblem([[[[1]]]], 3)).toMatchObject({
      kind: 'too-deep',
      pointer: '/0/0/0',
    });
  });

  it('walks a body far deeper than the stack allows without throwing', () => {
    const text = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(findJsonInputProblem(JSON.parse(text))).toMatchObject({ kind: 'too-deep' });
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses the key %s at any depth, as JSON.parse makes it, naming where',
    (key) => {
      const value = JSON.parse(`{"params":{"arguments":[{"${key}":{"polluted":true}}]}}`);
      expect(findJsonInputProblem(value)).toEqual({
        kind: 'forbidden-key',
        key,
        pointer: `/params/arguments/0/${key}`,
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('escapes keys in the pointer', () => {
    expect(findJsonInputProblem(JSON.parse('{"a/b~":{"__proto__":1}}'))).toMatchObject({
      pointer: '/a~1b~0/__proto__',
    });
  });
});

describe('describeJsonInputProblem', () => {
  it('says what is wrong and what to do', () => {
    expect(describeJsonInputProblem({ kind: 'too-deep', maxDepth: 64, pointer: '/a' })).toMatch(
      /deeper than 64 levels \(at \/a\); send flatter input/,
    );
    expect(
      describeJsonInputProblem({
        kind: 'forbidden-key',
        key: '__proto__',
        pointer: '/x/__proto__',
      }),
    ).toMatch(/"__proto__" \(at \/x\/__proto__\).*prototype pollution/);
  });

  it('names the body by default, or the subject it is given', () => {
    const problem = { kind: 'too-deep', maxDepth: 3, pointer: '/a' } as const;
    expect(describeJsonInputProblem(problem)).toMatch(/^The JSON body nests/);
    expect(describeJsonInputProblem(problem, 'The arguments')).toMatch(/^The arguments nests/);
  });
});
