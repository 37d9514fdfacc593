import { describe, expect, it } from 'vitest';
import { DtoSchemaError } from '../../lib/errors/dto-schema.error.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import {
  allowNull,
  mergeSchemaParts,
  type SchemaPart,
} from '../../lib/schema/schema-keywords.merger.js';

class OrderDto {}

/** The merged schema of `OrderDto.field` under the given rules, `[schema, decorator]` each. */
const merge = (...parts: [JsonSchema, string][]): JsonSchema =>
  mergeSchemaParts(
    OrderDto,
    'field',
    parts.map(([schema, decorator]): SchemaPart => ({ schema, decorator })),
  );

const IS_DEFINED: [JsonSchema, string] = [{ not: { const: null } }, 'IsDefined'];
const IS_NOT_EMPTY: [JsonSchema, string] = [{ not: { enum: ['', null] } }, 'IsNotEmpty'];

describe('mergeSchemaParts: types', () => {
  it('gives nothing for a property without rules', () => {
    expect(merge()).toEqual({});
  });

  it('intersects the type claims whatever the decorator order: an integer is a number', () => {
    const isInt: [JsonSchema, string] = [{ type: 'integer' }, 'IsInt'];
    const min: [JsonSchema, string] = [{ type: 'number', minimum: 0 }, 'Min'];
    expect(merge(isInt, min)).toEqual({ type: 'integer', minimum: 0 });
    expect(merge(min, isInt)).toEqual({ type: 'integer', minimum: 0 });
  });

  it('narrows a list of types to the ones every rule allows', () => {
    expect(
      merge(
        [{ type: ['string', 'null'], enum: ['a', null] }, 'IsIn'],
        [{ type: 'string' }, 'IsString'],
      ),
    ).toEqual({ type: 'string', enum: ['a', null] });
  });

  it('refuses rules that no value can pass, naming every rule that claimed a type', () => {
    const parts: [JsonSchema, string][] = [
      [{ type: 'string' }, 'IsString'],
      [{ minLength: 1 }, 'X'],
      [{ type: 'integer' }, 'IsInt'],
    ];
    expect(() => merge(...parts)).toThrow(DtoSchemaError);
    expect(() => merge(...parts)).toThrow(
      'Cannot build the JSON Schema of OrderDto.field: its rules @IsString(), @IsInt() ask for ' +
        'different JSON types, so no value can pass them all. Remove the rule that does not ' +
        'belong to this property.',
    );
  });
});

describe('mergeSchemaParts: other keywords', () => {
  it('keeps the tighter of two bounds of the same kind', () => {
    expect(
      merge(
        [{ type: 'string', minLength: 2, maxLength: 10 }, 'Length'],
        [{ type: 'string', minLength: 5 }, 'MinLength'],
        [{ type: 'string', maxLength: 8 }, 'MaxLength'],
      ),
    ).toEqual({ type: 'string', minLength: 5, maxLength: 8 });
    expect(
      merge(
        [{ type: 'number', minimum: 1, exclusiveMaximum: 9 }, 'A'],
        [{ type: 'number', minimum: 3, exclusiveMaximum: 4 }, 'B'],
      ),
    ).toEqual({ type: 'number', minimum: 3, exclusiveMaximum: 4 });
  });

  it('keeps a keyword two rules agree on once', () => {
    expect(
      merge([{ type: 'string', format: 'email' }, 'IsEmail'], [{ format: 'email' }, 'IsEmail']),
    ).toEqual({ type: 'string', format: 'email' });
  });

  it('applies both of two different patterns, each allOf branch with the type repeated', () => {
    expect(
      merge(
        [{ type: 'string', pattern: '^a' }, 'Matches'],
        [{ type: 'string', pattern: 'z$' }, 'Matches'],
        [{ type: 'string', pattern: 'm' }, 'Contains'],
      ),
    ).toEqual({
      type: 'string',
      pattern: '^a',
      allOf: [
        { type: 'string', pattern: 'z$' },
        { type: 'string', pattern: 'm' },
      ],
    });
  });

  it('does not alter the schemas of the rules', () => {
    const first: JsonSchema = { type: 'number', minimum: 1 };
    const second: JsonSchema = { type: 'integer', minimum: 4, not: { const: 5 } };
    merge([first, 'Min'], [second, 'X'], IS_NOT_EMPTY);
    expect(first).toEqual({ type: 'number', minimum: 1 });
    expect(second).toEqual({ type: 'integer', minimum: 4, not: { const: 5 } });
  });
});

describe('mergeSchemaParts: excluded values', () => {
  it('writes nothing for excluded values the type rules out already', () => {
    expect(merge(IS_DEFINED, [{ type: 'integer' }, 'IsInt'])).toEqual({ type: 'integer' });
    expect(merge([{ type: 'boolean' }, 'IsBoolean'], IS_NOT_EMPTY)).toEqual({ type: 'boolean' });
  });

  it('turns the empty string a string must not be into minLength: 1, keeping a tighter one', () => {
    expect(merge([{ type: 'string' }, 'IsString'], IS_NOT_EMPTY)).toEqual({
      type: 'string',
      minLength: 1,
    });
    expect(merge([{ type: 'string', minLength: 3 }, 'MinLength'], IS_NOT_EMPTY)).toEqual({
      type: 'string',
      minLength: 3,
    });
  });

  it('pools the excluded values of several rules into one not', () => {
    expect(merge(IS_DEFINED, IS_NOT_EMPTY, [{ not: { enum: ['x', ''] } }, 'IsNotIn'])).toEqual({
      not: { enum: [null, '', 'x'] },
    });
    expect(merge(IS_DEFINED)).toEqual({ not: { const: null } });
  });

  it('removes excluded values from an enum, and rejects everything when none is left', () => {
    expect(
      merge(
        [{ type: 'string', enum: ['a', 'b', 'c'] }, 'IsIn'],
        [{ not: { enum: ['b'] } }, 'IsNotIn'],
      ),
    ).toEqual({ type: 'string', enum: ['a', 'c'] });
    expect(
      merge([{ type: 'string', enum: ['a'] }, 'IsIn'], [{ not: { enum: ['a'] } }, 'IsNotIn']),
    ).toEqual({ type: 'string', not: {} });
  });

  it('treats a nested DTO as an object, which is never null or empty', () => {
    expect(
      merge([{ $ref: '#/$defs/Address' }, 'ValidateNested'], IS_DEFINED, IS_NOT_EMPTY),
    ).toEqual({ $ref: '#/$defs/Address' });
  });

  it('keeps a not that excludes no list apart from the pooled exclusions', () => {
    expect(
      merge([{ type: 'number', not: {} }, 'IsDivisibleBy'], [{ not: { enum: [3] } }, 'IsNotIn']),
    ).toEqual({ type: 'number', not: {}, allOf: [{ type: 'number', not: { const: 3 } }] });
  });
});

describe('allowNull', () => {
  it('adds null to the type, and to the listed values', () => {
    expect(allowNull({ type: 'string', minLength: 1 })).toEqual({
      type: ['string', 'null'],
      minLength: 1,
    });
    expect(allowNull({ type: 'integer', enum: [1, 2] })).toEqual({
      type: ['integer', 'null'],
      enum: [1, 2, null],
    });
    expect(allowNull({ type: ['string', 'null'], enum: ['a', null] })).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
  });

  it('turns a const into an enum of it and null', () => {
    expect(allowNull({ type: 'string', const: 'dog' })).toEqual({
      type: ['string', 'null'],
      enum: ['dog', null],
    });
  });

  it('leaves the type out when there is none', () => {
    expect(allowNull({ pattern: 'x' })).toEqual({ pattern: 'x' });
  });

  it('wraps a reference, a oneOf, an anyOf or an opaque not in anyOf with a null branch', () => {
    for (const schema of [
      { $ref: '#/$defs/Address' },
      { oneOf: [{ $ref: '#/$defs/Dog' }, { $ref: '#/$defs/Cat' }] },
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      { type: 'number', not: {} },
    ] satisfies JsonSchema[]) {
      expect(allowNull(schema)).toEqual({ anyOf: [{ type: 'null' }, schema] });
    }
  });

  it('lets null through an exclusion list, keeping the other excluded values', () => {
    expect(allowNull({ not: { enum: [null, '', 'x'] } })).toEqual({ not: { enum: ['', 'x'] } });
    expect(allowNull({ not: { enum: [null, 'x'] } })).toEqual({ not: { const: 'x' } });
    expect(allowNull({ not: { const: null } })).toEqual({});
  });

  it('allows null in each allOf branch too, or a null would fail one of them', () => {
    expect(
      allowNull({ type: 'string', pattern: '^a', allOf: [{ type: 'string', pattern: 'z$' }] }),
    ).toEqual({
      type: ['string', 'null'],
      pattern: '^a',
      allOf: [{ type: ['string', 'null'], pattern: 'z$' }],
    });
  });
});
