import { describe, expect, it } from 'vitest';
import {
  compileJsonSchema,
  explainSchemaFailure,
  parseAjvMessage,
  renderValues,
} from '../../lib/schema/json-schema.check.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';

const address: JsonSchema = {
  type: 'object',
  properties: { zip: { type: 'string', pattern: '^\\d{5}$' } },
  required: ['zip'],
  additionalProperties: false,
};

const order: JsonSchema = {
  type: 'object',
  properties: {
    level: { type: 'integer', enum: [1, 2] },
    shipping: { $ref: '#/$defs/Address' },
    billing: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/Address' }] },
    tags: { type: 'array', items: { type: 'string' } },
    pet: { oneOf: [{ $ref: '#/$defs/Dog' }, { $ref: '#/$defs/Cat' }] },
  },
  required: ['level', 'shipping'],
  additionalProperties: false,
  $defs: {
    Address: address,
    Dog: {
      type: 'object',
      properties: { kind: { type: 'string', const: 'dog' }, barks: { type: 'boolean' } },
      required: ['kind', 'barks'],
      additionalProperties: false,
    },
    Cat: {
      type: 'object',
      properties: { kind: { type: 'string', const: 'cat' }, lives: { type: 'integer' } },
      required: ['kind', 'lives'],
      additionalProperties: false,
    },
  },
};

const check = compileJsonSchema(order, 'the arguments');

describe('compileJsonSchema (the SDK validator, issues a model can act on)', () => {
  it('passes a valid value with no issues', () => {
    expect(check({ level: 1, shipping: { zip: '12345' }, billing: null, tags: ['a'] })).toEqual([]);
  });

  it('locates a missing property at its own path', () => {
    expect(check({ level: 1 })).toStrictEqual([
      { path: '/shipping', keyword: 'required', message: 'shipping is required' },
    ]);
  });

  it('names each unknown property, at any depth, with the allowed ones', () => {
    expect(check({ level: 1, shipping: { zip: '12345', city: 'X' }, colour: 'red' })).toStrictEqual(
      [
        {
          path: '/colour',
          keyword: 'additionalProperties',
          message:
            'property "colour" is not allowed; allowed properties: level, shipping, billing, tags, pet',
        },
        {
          path: '/shipping/city',
          keyword: 'additionalProperties',
          message: 'property "city" is not allowed; allowed properties: zip',
        },
      ],
    );
  });

  it('lists the allowed values of an enum, as JSON', () => {
    expect(check({ level: 'Low', shipping: { zip: '12345' } })).toStrictEqual([
      { path: '/level', keyword: 'enum', message: 'level must be one of 1, 2', allowed: [1, 2] },
    ]);
  });

  it('keeps the precise issue of an optional value, not "must be null" or the anyOf summary', () => {
    expect(check({ level: 1, shipping: { zip: '12345' }, billing: { zip: 'x' } })).toStrictEqual([
      {
        path: '/billing/zip',
        keyword: 'pattern',
        message: 'zip must match pattern "^\\d{5}$"',
      },
    ]);
  });

  it('reports the chosen branch of a oneOf, not the const of the others', () => {
    expect(
      check({ level: 1, shipping: { zip: '12345' }, pet: { kind: 'dog', barks: 'yes' } }),
    ).toStrictEqual([{ path: '/pet/barks', keyword: 'type', message: 'barks must be boolean' }]);
    expect(check({ level: 1, shipping: { zip: '12345' }, pet: { kind: 'fish' } })).toEqual(
      expect.arrayContaining([
        {
          path: '/pet/kind',
          keyword: 'const',
          message: 'kind must be one of "dog", "cat"',
          allowed: ['dog', 'cat'],
        },
      ]),
    );
  });

  it('labels array items by their index', () => {
    expect(check({ level: 1, shipping: { zip: '12345' }, tags: ['a', 2] })).toStrictEqual([
      { path: '/tags/1', keyword: 'type', message: 'tags[1] must be string' },
    ]);
  });

  it('calls the value itself by its subject', () => {
    const list = compileJsonSchema({ type: 'array', items: { type: 'integer' } }, 'the result');
    expect(list({ not: 'a list' })).toStrictEqual([
      { path: '', keyword: 'type', message: 'the result must be array' },
    ]);
  });
});

describe('parseAjvMessage', () => {
  it('splits errorsText() into located errors', () => {
    expect(
      parseAjvMessage(
        'data must have required property \'b\', data/a must be integer, data/x/0 must match pattern "^a, b$"',
      ),
    ).toStrictEqual([
      { path: '', message: "must have required property 'b'" },
      { path: '/a', message: 'must be integer' },
      { path: '/x/0', message: 'must match pattern "^a, b$"' },
    ]);
  });

  it('keeps an unrecognised text whole, at the root', () => {
    expect(parseAjvMessage('something else')).toStrictEqual([
      { path: '', message: 'something else' },
    ]);
  });
});

describe('explainSchemaFailure', () => {
  it('falls back to the raw message for a keyword it does not refine', () => {
    expect(
      explainSchemaFailure(
        { type: 'string', minLength: 3 },
        'ab',
        'data must NOT have fewer than 3 characters',
      ),
    ).toStrictEqual([
      {
        path: '',
        keyword: 'minLength',
        message: 'the value must NOT have fewer than 3 characters',
      },
    ]);
  });
});

describe('renderValues', () => {
  it('shows values as JSON and shortens long lists', () => {
    expect(renderValues(['a', 1, null])).toBe('"a", 1, null');
    expect(renderValues(Array.from({ length: 25 }, (_, i) => i))).toBe(
      '0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 … and 5 more',
    );
  });
});
