import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';
import type {
  ConstraintConversion,
  ConstraintConverters,
} from './constraint-converter.interface.js';
import { fixed, NOTHING, options, typeOnly } from './constraint-converter.helpers.js';

/**
 * `@IsDate()` with `@Type(() => Date)`: an RFC 3339 date-time, whose seconds stop at 59
 * because `new Date()` (which class-transformer calls) rejects the leap second 60 that the
 * `date-time` format allows.
 */
const DATE_TIME_SCHEMA: JsonSchema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt\\s]\\d{2}:\\d{2}:[0-5]\\d',
};

/**
 * The JSON types of a list of allowed values. `undefined` when a value is an object or an
 * array: `enum` alone is then exact, and a `type` would only repeat it less precisely.
 */
function typesOfValues(values: readonly unknown[]): JsonSchemaTypeName[] | undefined {
  const types = new Set<JsonSchemaTypeName>();
  for (const value of values) {
    if (value === null) types.add('null');
    else if (typeof value === 'string') types.add('string');
    else if (typeof value === 'boolean') types.add('boolean');
    else if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number');
    else return undefined;
  }
  if (types.has('number')) types.delete('integer');
  return types.size > 0 ? [...types] : undefined;
}

// class-validator compares list values with `===`, so an object or array in a list can
// never match a value from JSON (which is always a fresh object), nor can NaN or Infinity.
const jsonComparable = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

const enumOf = (values: readonly unknown[]): JsonSchema => {
  const comparable = [...new Set(values.filter(jsonComparable))];
  if (comparable.length === 0) return NOTHING;
  const types = typesOfValues(comparable);
  return { ...(types && { type: types.length === 1 ? types[0] : types }), enum: comparable };
};

/**
 * The values an `@IsEnum()` rule accepts, as the schema lists them. class-validator
 * 0.14.1+ stores them as the second constraint; older releases only have the enum object,
 * from which numeric reverse-mapping keys ("1" → "Low") are dropped the same way.
 */
export const enumValues = (constraints: readonly unknown[]): unknown[] => {
  if (Array.isArray(constraints[1])) return constraints[1];
  return Object.entries(options(constraints[0]))
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
};

/** The values an `@IsIn()` rule accepts. */
export const isInValues = (constraints: readonly unknown[]): unknown[] =>
  Array.isArray(constraints[0]) ? constraints[0].filter(jsonComparable) : [];

const equalsValue = (constraints: readonly unknown[]): ConstraintConversion => {
  const [value] = constraints;
  if (!jsonComparable(value)) return { schema: NOTHING };
  const types = typesOfValues([value]);
  return { schema: { ...(types && { type: types[0] }), const: value } };
};

/** Type checkers, and the rules that list or exclude values. */
export const VALUE_CONSTRAINT_CONVERTERS: ConstraintConverters = {
  isString: { decorator: 'IsString', convert: typeOnly('string') },
  isInt: { decorator: 'IsInt', convert: typeOnly('integer') },
  isBoolean: { decorator: 'IsBoolean', convert: typeOnly('boolean') },
  isArray: { decorator: 'IsArray', convert: typeOnly('array') },
  isObject: { decorator: 'IsObject', convert: typeOnly('object') },
  isDate: { decorator: 'IsDate', convert: fixed(DATE_TIME_SCHEMA) },
  isEnum: { decorator: 'IsEnum', convert: (c) => ({ schema: enumOf(enumValues(c)) }) },
  isIn: { decorator: 'IsIn', convert: (c) => ({ schema: enumOf(isInValues(c)) }) },
  isNotIn: {
    decorator: 'IsNotIn',
    convert: (c) => {
      const excluded = isInValues(c);
      return { schema: excluded.length > 0 ? { not: { enum: excluded } } : {} };
    },
  },
  // isNotEmpty: `value !== '' && value !== null && value !== undefined`.
  isNotEmpty: { decorator: 'IsNotEmpty', convert: fixed({ not: { enum: ['', null] } }) },
  equals: { decorator: 'Equals', convert: equalsValue },
};
