import { describe, expect, it } from 'vitest';
import {
  compileJsonSchema,
  explainSchemaFailure,
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

describe('compileJsonSchema reads the error objects of Ajv, not its prose', () => {
  // Names that would have blurred the boundaries of Ajv's one-line `errorsText()`.
  const tricky = "it's, data/x must be";
  const closed = compileJsonSchema({
    type: 'object',
    properties: { [tricky]: { type: 'string' }, 'a b': { type: 'integer' } },
    required: [tricky],
    additionalProperties: false,
  });

  it('locates a missing property by its name, whatever the name says', () => {
    expect(closed({ 'a b': 1 })).toStrictEqual([
      { path: "/it's, data~1x must be", keyword: 'required', message: `${tricky} is required` },
    ]);
  });

  it('locates a failing value under a key with spaces, and an unknown key with a comma', () => {
    expect(closed({ [tricky]: 'ok', 'a b': 'x', 'c, data d': 1 })).toStrictEqual([
      {
        path: '/c, data d',
        keyword: 'additionalProperties',
        message: `property "c, data d" is not allowed; allowed properties: ${tricky}, a b`,
      },
      { path: '/a b', keyword: 'type', message: 'a b must be integer' },
    ]);
  });

  it('names the keyword Ajv reports, also for keywords it has no short message for', () => {
    const gift = compileJsonSchema({
      type: 'object',
      properties: { tags: { type: 'object', minProperties: 1 } },
      dependentRequired: { gift: ['tags'] },
    });
    expect(gift({ gift: true, tags: {} })).toStrictEqual([
      {
        path: '/tags',
        keyword: 'minProperties',
        message: 'tags must NOT have fewer than 1 properties',
      },
    ]);
    expect(gift({ gift: true })).toStrictEqual([
      {
        path: '',
        keyword: 'dependentRequired',
        message: 'the value must have property tags when property gift is present',
      },
    ]);
  });
});

describe('compileJsonSchema: the dialect of the schema, as the SDK picks it', () => {
  it('checks a draft-07 schema with the draft-07 engine (items as a tuple)', () => {
    const pair = compileJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'integer' }],
      additionalItems: false,
    } as never);
    expect(pair(['a', 1])).toEqual([]);
    expect(pair(['a', 'b']).map((issue) => [issue.path, issue.keyword])).toEqual([['/1', 'type']]);
    expect(pair(['a', 1, true]).map((issue) => issue.keyword)).toEqual(['additionalItems']);
  });

  it('compiles two schemas with the same $id, and refuses an unknown dialect', () => {
    const schema = { $id: 'urn:test:same-id', type: 'string' } as const;
    expect(compileJsonSchema({ ...schema })(1)).toHaveLength(1);
    expect(compileJsonSchema({ ...schema })('x')).toEqual([]);
    expect(() => compileJsonSchema({ $schema: 'urn:unknown', type: 'string' })('x')).toThrow(
      /unsupported dialect/,
    );
  });
});

describe('compileJsonSchema: null for an optional property', () => {
  const search = compileJsonSchema(
    {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
        sort: { type: 'string', enum: ['asc', 'desc'] },
        shipping: { $ref: '#/$defs/Address' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['query'],
      additionalProperties: false,
      $defs: { Address: address },
    },
    'the arguments',
  );

  it('says to leave the property out, once per property, whatever its schema', () => {
    expect(
      search({ query: 'lamp', limit: null, sort: null, shipping: null, tags: ['a'] }),
    ).toStrictEqual(
      ['limit', 'sort', 'shipping'].map((name) => ({
        path: `/${name}`,
        keyword: 'type',
        message: `${name} cannot be null: it is optional, so leave it out instead of sending null`,
      })),
    );
  });

  it('keeps the type message for a required property and for an array item', () => {
    expect(search({ query: null, tags: [null] })).toStrictEqual([
      { path: '/query', keyword: 'type', message: 'query must be string' },
      { path: '/tags/0', keyword: 'type', message: 'tags[0] must be string' },
    ]);
  });

  it('accepts null where the schema lists it', () => {
    expect(check({ level: 1, shipping: { zip: '12345' }, billing: null })).toEqual([]);
  });
});

describe('explainSchemaFailure', () => {
  it('falls back to the raw message for a keyword it does not refine', () => {
    expect(
      explainSchemaFailure({ type: 'string', minLength: 3 }, 'ab', [
        {
          instancePath: '',
          schemaPath: '#/minLength',
          keyword: 'minLength',
          params: { limit: 3 },
          message: 'must NOT have fewer than 3 characters',
        },
      ]),
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
