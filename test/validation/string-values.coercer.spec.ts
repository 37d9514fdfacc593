import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { coerceStringValues, listedValues } from '../../lib/validation/string-values.coercer.js';

/** The arguments schema of a DTO such as the one a prompt or URI template takes. */
const schema: JsonSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer' },
    ratio: { type: 'number' },
    draft: { type: 'boolean' },
    title: { type: 'string' },
    code: { type: 'string', pattern: '^\\d+$' },
    limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    label: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    either: { type: ['integer', 'string'] },
    ids: { type: 'array', items: { type: 'integer' } },
    tags: { type: 'array', items: { type: 'string' } },
    flags: { type: 'array', items: { type: 'boolean' } },
    loose: {},
  },
};

const coerce = (values: Record<string, unknown>) => coerceStringValues(schema, values);

describe('coerceStringValues', () => {
  it.each([
    ['page', '2', 2],
    ['page', '0', 0],
    ['page', '-7', -7],
    ['ratio', '2.5', 2.5],
    ['ratio', '-0.25', -0.25],
    ['ratio', '1e3', 1000],
    ['ratio', '6.02E+23', 6.02e23],
  ])('turns %s "%s" into the number %s', (name, value, expected) => {
    expect(coerce({ [name]: value })).toEqual({ [name]: expected });
  });

  it.each([
    ['true', true],
    ['false', false],
  ])('turns "%s" into a boolean where the schema asks for one', (value, expected) => {
    expect(coerce({ draft: value })).toEqual({ draft: expected });
  });

  it.each(['abc', '', ' 2', '2 ', '0x10', '01', '2.', '.5', '+1', 'Infinity', 'NaN', '1,5', '１'])(
    'leaves the non-numeric string %j alone, so that validation names it',
    (value) => {
      expect(coerce({ page: value, ratio: value })).toEqual({ page: value, ratio: value });
    },
  );

  it.each(['TRUE', 'True', '1', '0', 'yes', '', ' true'])(
    'leaves %j alone for a boolean property',
    (value) => {
      expect(coerce({ draft: value })).toEqual({ draft: value });
    },
  );

  it('keeps strings for string properties, even when they read as numbers or booleans', () => {
    expect(coerce({ title: '42', code: '007', label: 'true' })).toEqual({
      title: '42',
      code: '007',
      label: 'true',
    });
  });

  it('keeps the string when a property may be a string or a number', () => {
    expect(coerce({ either: '5' })).toEqual({ either: '5' });
  });

  it('reads the type of a nullable property from its anyOf branches', () => {
    expect(coerce({ limit: '10' })).toEqual({ limit: 10 });
    expect(coerce({ limit: 'null' })).toEqual({ limit: 'null' });
  });

  it('turns one string into a one-item array of the item type', () => {
    expect(coerce({ ids: '3', tags: 'red', flags: 'true' })).toEqual({
      ids: [3],
      tags: ['red'],
      flags: [true],
    });
  });

  it('leaves a non-numeric single item as it is inside the array, so that validation names it', () => {
    expect(coerce({ ids: 'x' })).toEqual({ ids: ['x'] });
  });

  it('coerces each string item of an array (an exploded URI template variable)', () => {
    expect(coerce({ ids: ['1', '22', 'x', 4], tags: ['1', 'b'] })).toEqual({
      ids: [1, 22, 'x', 4],
      tags: ['1', 'b'],
    });
  });

  it('leaves an array alone where the schema does not ask for one', () => {
    expect(coerce({ page: ['1', '2'] })).toEqual({ page: ['1', '2'] });
  });

  it('leaves values that are not strings as they are', () => {
    const nested = { a: '1' };
    const result = coerce({ page: 3, draft: null, ratio: nested });
    expect(result).toEqual({ page: 3, draft: null, ratio: { a: '1' } });
    expect(result.ratio).toBe(nested);
  });

  it('keeps unknown keys and properties without a type as strings, for validation to judge', () => {
    expect(coerce({ extra: '2', loose: '3' })).toEqual({ extra: '2', loose: '3' });
  });

  it('does not read Object.prototype members as properties of the schema', () => {
    expect(coerce({ constructor: '1', toString: 'true', hasOwnProperty: '2' })).toEqual({
      constructor: '1',
      toString: 'true',
      hasOwnProperty: '2',
    });
  });

  it('works with a schema that has no properties', () => {
    expect(coerceStringValues({ type: 'object' }, { page: '2' })).toEqual({ page: '2' });
  });

  it('does not change the values it was given', () => {
    const values = Object.freeze({ page: '2', ids: Object.freeze(['1']) });
    expect(coerce(values)).toEqual({ page: 2, ids: [1] });
    expect(values).toEqual({ page: '2', ids: ['1'] });
  });

  it('keeps a "__proto__" key as a plain key, never as the prototype of the result', () => {
    const hostile = JSON.parse('{"__proto__": {"isAdmin": true}, "page": "1"}') as Record<
      string,
      unknown
    >;
    const result = coerce(hostile);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect((result as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    // Kept, so that the unknown-key check reports it rather than it vanishing silently.
    expect(Object.keys(result)).toEqual(['__proto__', 'page']);
    expect(result.page).toBe(1);
  });

  it('keeps a string "__proto__" value as a key too', () => {
    const hostile = JSON.parse('{"__proto__": "2"}') as Record<string, unknown>;
    const result = coerce(hostile);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('2');
  });

  it('honours an own "__proto__" property of the schema like any other', () => {
    const hostile = JSON.parse('{"__proto__": "7"}') as Record<string, unknown>;
    const withProto: JsonSchema = {
      type: 'object',
      properties: JSON.parse('{"__proto__": {"type": "integer"}}') as Record<string, JsonSchema>,
    };
    expect(
      Object.getOwnPropertyDescriptor(coerceStringValues(withProto, hostile), '__proto__')?.value,
    ).toBe(7);
  });
});

describe('listedValues', () => {
  enum Colour {
    Red = 'red',
    Green = 'green',
  }
  const listing: JsonSchema = {
    type: 'object',
    properties: {
      colour: { type: 'string', enum: [Colour.Red, Colour.Green] },
      size: { type: 'integer', enum: [1, 2, 3] },
      colours: { type: 'array', items: { type: 'string', enum: ['cyan', 'magenta'] } },
      maybe: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
      mixed: { anyOf: [{ enum: ['x'] }, { enum: [7, null] }] },
      nullable: { enum: ['on', null] },
      free: { type: 'string' },
      none: { enum: [] },
    },
  };

  it('lists the values of an enum (@IsEnum, @IsIn), as strings', () => {
    expect(listedValues(listing, 'colour')).toEqual(['red', 'green']);
    expect(listedValues(listing, 'size')).toEqual(['1', '2', '3']);
  });

  it('lists the item values of an array of enum values', () => {
    expect(listedValues(listing, 'colours')).toEqual(['cyan', 'magenta']);
  });

  it('lists the values of every anyOf branch, without null', () => {
    expect(listedValues(listing, 'maybe')).toEqual(['a', 'b']);
    expect(listedValues(listing, 'mixed')).toEqual(['x', '7']);
    expect(listedValues(listing, 'nullable')).toEqual(['on']);
  });

  it('lists nothing for a free property, an empty enum, or an unknown name', () => {
    expect(listedValues(listing, 'free')).toBeUndefined();
    expect(listedValues(listing, 'none')).toBeUndefined();
    expect(listedValues(listing, 'missing')).toBeUndefined();
    expect(listedValues({ type: 'object' }, 'colour')).toBeUndefined();
  });

  it('does not read Object.prototype members as properties', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(listedValues(listing, name)).toBeUndefined();
    }
  });
});
