import type { JsonSchema, JsonSchemaTypeName } from './json-schema.interface.js';

/**
 * Places where the generated schema and class-validator cannot agree exactly. Call-time
 * validation is always class-validator, so a gap only changes what a client learns from
 * the schema. `schema` says which side is wider: `looser` means the schema lets through
 * values class-validator rejects at call time, `stricter` the opposite, `both` that each
 * accepts some values the other rejects.
 *
 * Gaps marked `notice: true` are reported per property through
 * `DtoSchemaFactoryOptions.onGap` when a DTO hits them; the others are inherent to a
 * decorator and apply to every use of it.
 */
export const KNOWN_SCHEMA_GAPS = [
  {
    id: 'matches-flags',
    validators: ['matches'],
    schema: 'looser',
    notice: true,
    reason:
      'JSON Schema `pattern` has no flags. A @Matches() regex with the i, m, s, y or v flag ' +
      'would mean something else without them, so its pattern is left out of the schema.',
  },
  {
    id: 'matches-syntax',
    validators: ['matches'],
    schema: 'looser',
    notice: true,
    reason:
      'JSON Schema patterns are compiled as Unicode regexes (the `u` flag). A @Matches() ' +
      'regex that is not valid in that mode (for example an escaped `-` outside a class) is ' +
      'left out of the schema.',
  },
  {
    id: 'date-string-strict',
    validators: ['isDateString'],
    schema: 'looser',
    notice: true,
    reason:
      '@IsDateString({ strict: true }) also rejects dates that do not exist (2023-02-30); ' +
      'the schema pattern only checks the ISO 8601 shape.',
  },
  {
    id: 'number-decimal-places',
    validators: ['isNumber'],
    schema: 'looser',
    notice: true,
    reason:
      '@IsNumber({ maxDecimalPlaces }) has no exact JSON Schema equivalent (`multipleOf` ' +
      'suffers from binary floating point), so it is enforced at call time only.',
  },
  {
    id: 'custom-validator',
    validators: [],
    schema: 'looser',
    notice: true,
    reason:
      'Validators without a converter (@Validate(), registerDecorator(), built-ins not yet ' +
      'in VALIDATION_CONSTRAINT_CONVERTERS) add nothing to the schema.',
  },
  {
    id: 'nested-presence',
    validators: ['nestedValidation'],
    schema: 'stricter',
    notice: true,
    reason:
      'A property whose only rule is @ValidateNested() is listed as required, but ' +
      'class-validator skips nested validation of a missing value. Add @IsDefined() (or ' +
      '@IsOptional()) so that both say the same.',
  },
  {
    id: 'validate-if',
    validators: ['conditionalValidation'],
    schema: 'stricter',
    notice: true,
    reason:
      '@ValidateIf() and the `validateIf` option switch rules off per value; the schema ' +
      'cannot express the condition, so the property is optional and its rules always apply.',
  },
  {
    id: 'type-discriminator',
    validators: ['nestedValidation'],
    schema: 'looser',
    notice: true,
    reason:
      '@Type() with a `discriminator` picks the class from the value; the schema only says ' +
      '"an object" for such a property.',
  },
  {
    id: 'optional-null',
    validators: ['conditionalValidation'],
    schema: 'stricter',
    notice: false,
    reason:
      '@IsOptional() also accepts null. The schema does not advertise null, because ' +
      '`type` arrays and `anyOf` with null are handled badly by several model providers, and ' +
      'leaving an optional argument out means the same to a tool.',
  },
  {
    id: 'numeric-enum-reverse-mapping',
    validators: ['isEnum'],
    schema: 'stricter',
    notice: false,
    reason:
      'class-validator isEnum also accepts the member names of a numeric TypeScript enum ' +
      '(the reverse mapping, e.g. "Low" for Level.Low = 1). The schema lists only the values.',
  },
  {
    id: 'email-format',
    validators: ['isEmail'],
    schema: 'both',
    notice: false,
    reason:
      'The `email` format and validator.js isEmail differ on edge cases: non-ASCII local ' +
      'parts, numeric top-level domains, label and length limits, and every IsEmail option.',
  },
  {
    id: 'url-format',
    validators: ['isUrl'],
    schema: 'both',
    notice: false,
    reason:
      'validator.js isURL by default needs no scheme ("example.com" passes), allows only ' +
      'http, https and ftp, and needs a top-level domain ("http://localhost" fails); the `uri` ' +
      'format needs a scheme and accepts any scheme and host.',
  },
  {
    id: 'length-presentation-selectors',
    validators: ['isLength', 'minLength', 'maxLength'],
    schema: 'stricter',
    notice: false,
    reason:
      'validator.js isLength does not count the emoji presentation selectors U+FE0E and ' +
      'U+FE0F; JSON Schema counts every code point.',
  },
  {
    id: 'each-single-value',
    validators: [],
    schema: 'stricter',
    notice: false,
    reason:
      'A rule with `each: true` given a value that is not an array checks the value itself; ' +
      'the schema asks for an array, which is what such a property is declared for.',
  },
  {
    id: 'nested-array-or-object',
    validators: ['nestedValidation'],
    schema: 'stricter',
    notice: false,
    reason:
      '@ValidateNested() validates an object or each element of an array, whatever the ' +
      'declared shape; the schema follows the declaration (`each: true` or a `T[]` type).',
  },
] as const satisfies readonly KnownSchemaGap[];

/** One entry of {@link KNOWN_SCHEMA_GAPS}. */
export interface KnownSchemaGap {
  readonly id: string;
  /** class-validator validator names (or metadata types) the gap comes from. */
  readonly validators: readonly string[];
  readonly schema: 'looser' | 'stricter' | 'both';
  readonly notice: boolean;
  readonly reason: string;
}

export type KnownSchemaGapId = (typeof KNOWN_SCHEMA_GAPS)[number]['id'];

/** A gap hit by one rule of one property, before the factory adds where it happened. */
export interface ConstraintGap {
  readonly gap: KnownSchemaGapId;
  readonly detail: string;
}

export interface ConstraintConversion {
  /**
   * Keywords for the value, or for each item when the rule has `each: true`. A `type` here
   * is a claim that the factory intersects with the other rules' claims, so the result
   * does not depend on decorator order.
   */
  readonly schema: JsonSchema;
  readonly gaps?: readonly ConstraintGap[];
}

export interface ValidationConstraintConverter {
  /** The decorator that stores this validator, as users write it; used in messages. */
  readonly decorator: string;
  readonly convert: (constraints: readonly unknown[]) => ConstraintConversion;
}

// validator.js 13 `isISO8601` (what @IsDateString() calls), copied so the schema accepts
// exactly what class-validator accepts: ISO 8601 is far wider than the RFC 3339 `date-time`
// format ("2024-01-01", "2024-W01-1", "20240101T1200" all pass class-validator).
const ISO_8601 =
  /^([+-]?\d{4}(?!\d{2}\b))((-?)((0[1-9]|1[0-2])(\3([12]\d|0[1-9]|3[01]))?|W([0-4]\d|5[0-3])(-?[1-7])?|(00[1-9]|0[1-9]\d|[12]\d{2}|3([0-5]\d|6[1-6])))([T\s]((([01]\d|2[0-3])((:?)[0-5]\d)?|24:?00)([.,]\d+(?!:))?)?(\17[0-5]\d([.,]\d+)?)?([zZ]|([+-])([01]\d|2[0-3]):?([0-5]\d)?)?)?)?$/;
const ISO_8601_STRICT_SEPARATOR =
  /^([+-]?\d{4}(?!\d{2}\b))((-?)((0[1-9]|1[0-2])(\3([12]\d|0[1-9]|3[01]))?|W([0-4]\d|5[0-3])(-?[1-7])?|(00[1-9]|0[1-9]\d|[12]\d{2}|3([0-5]\d|6[1-6])))([T]((([01]\d|2[0-3])((:?)[0-5]\d)?|24:?00)([.,]\d+(?!:))?)?(\17[0-5]\d([.,]\d+)?)?([zZ]|([+-])([01]\d|2[0-3]):?([0-5]\d)?)?)?)?$/;

// validator.js `isUUID` patterns with the `i` flag spelled out, so that `format: uuid`
// (which also accepts a `urn:uuid:` prefix and any version nibble) is narrowed to what
// class-validator accepts.
const HEX = '[0-9a-fA-F]';
const versioned = (nibble: string) =>
  `${HEX}{8}-${HEX}{4}-${nibble}${HEX}{3}-[89abAB]${HEX}{3}-${HEX}{12}`;
const NIL_UUID = '0{8}-0{4}-0{4}-0{4}-0{12}';
const MAX_UUID = '[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12}';
const UUID_ALTERNATIVES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8'].map((v) => [v, versioned(v)])),
  nil: NIL_UUID,
  max: MAX_UUID,
  loose: `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`,
  all: `${versioned('[1-8]')}|${NIL_UUID}|${MAX_UUID}`,
};

// `g` and `d` do not change what a regex matches with `String#match`, and `u` is how JSON
// Schema patterns are compiled anyway.
const FLAGS_PATTERN_CAN_CARRY = new Set(['g', 'd', 'u']);

const typeOnly = (type: JsonSchemaTypeName): ValidationConstraintConverter['convert'] => {
  return () => ({ schema: { type } });
};

const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const options = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/**
 * The JSON types of a list of allowed values. `undefined` when a value is an object or an
 * array: `enum` alone is then exact, and a `type` would only repeat it less precisely.
 */
export function typesOfValues(values: readonly unknown[]): JsonSchemaTypeName[] | undefined {
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

const enumOf = (values: readonly unknown[]): JsonSchema => {
  const types = typesOfValues(values);
  return { ...(types && { type: types.length === 1 ? types[0] : types }), enum: [...values] };
};

// class-validator 0.14.1+ stores the real values of the enum as the second constraint;
// older releases only have the enum object, from which numeric reverse-mapping keys
// ("1" → "Low") are dropped the same way.
const enumValues = (constraints: readonly unknown[]): unknown[] => {
  if (Array.isArray(constraints[1])) return constraints[1];
  return Object.entries(options(constraints[0]))
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
};

const isUnicodeRegex = (source: string): boolean => {
  try {
    return new RegExp(source, 'u') instanceof RegExp;
  } catch {
    return false;
  }
};

const matchesPattern = (constraints: readonly unknown[]): ConstraintConversion => {
  const [pattern, modifiers] = constraints;
  // validator.js ignores the modifiers argument when it is given a RegExp.
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags =
    pattern instanceof RegExp ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  const shown = `/${source}/${flags}`;
  const unsupported = [...flags].filter((flag) => !FLAGS_PATTERN_CAN_CARRY.has(flag));
  if (unsupported.length > 0) {
    const detail = `@Matches(${shown}) uses the ${unsupported.join(', ')} flag(s); its pattern is enforced at call time only`;
    return { schema: { type: 'string' }, gaps: [{ gap: 'matches-flags', detail }] };
  }
  if (!isUnicodeRegex(source)) {
    const detail = `@Matches(${shown}) is not a valid Unicode regex; its pattern is enforced at call time only`;
    return { schema: { type: 'string' }, gaps: [{ gap: 'matches-syntax', detail }] };
  }
  return { schema: { type: 'string', pattern: source } };
};

const uuidPattern = (constraints: readonly unknown[]): ConstraintConversion => {
  const requested = constraints[0];
  const versions = Array.isArray(requested) ? requested : [requested ?? 'all'];
  const alternatives = versions.map((version) => UUID_ALTERNATIVES[String(version)]);
  // An unknown version makes class-validator reject every value; `not: {}` says the same.
  const known = alternatives.filter((alternative) => alternative !== undefined);
  if (known.length === 0) return { schema: { type: 'string', not: {} } };
  return { schema: { type: 'string', format: 'uuid', pattern: `^(?:${known.join('|')})$` } };
};

const dateStringPattern = (constraints: readonly unknown[]): ConstraintConversion => {
  const { strict, strictSeparator } = options(constraints[0]);
  const regex = strictSeparator ? ISO_8601_STRICT_SEPARATOR : ISO_8601;
  const schema: JsonSchema = { type: 'string', pattern: regex.source };
  if (!strict) return { schema };
  const detail = '@IsDateString({ strict: true }) also rejects impossible dates at call time';
  return { schema, gaps: [{ gap: 'date-string-strict', detail }] };
};

const numberType = (constraints: readonly unknown[]): ConstraintConversion => {
  const places = options(constraints[0]).maxDecimalPlaces;
  if (places === undefined) return { schema: { type: 'number' } };
  const detail = `@IsNumber({ maxDecimalPlaces: ${String(places)} }) is enforced at call time only`;
  return { schema: { type: 'number' }, gaps: [{ gap: 'number-decimal-places', detail }] };
};

const bound = (keyword: string, type: JsonSchemaTypeName) => {
  return (constraints: readonly unknown[]): ConstraintConversion => {
    const value = asNumber(constraints[0]);
    return { schema: { type, ...(value !== undefined && { [keyword]: value }) } };
  };
};

/**
 * class-validator validator name (as `getTargetValidatorConstraints(...)[0].name` reports
 * it) → JSON Schema keywords. One table, so supporting another decorator is one entry.
 */
export const VALIDATION_CONSTRAINT_CONVERTERS: Readonly<
  Record<string, ValidationConstraintConverter>
> = {
  isString: { decorator: 'IsString', convert: typeOnly('string') },
  isInt: { decorator: 'IsInt', convert: typeOnly('integer') },
  isNumber: { decorator: 'IsNumber', convert: numberType },
  isBoolean: { decorator: 'IsBoolean', convert: typeOnly('boolean') },
  isArray: { decorator: 'IsArray', convert: typeOnly('array') },
  isEnum: { decorator: 'IsEnum', convert: (c) => ({ schema: enumOf(enumValues(c)) }) },
  isIn: {
    decorator: 'IsIn',
    convert: (c) => ({ schema: enumOf(Array.isArray(c[0]) ? c[0] : []) }),
  },
  // class-validator's min/max reject anything but a number, hence the implied type.
  min: { decorator: 'Min', convert: bound('minimum', 'number') },
  max: { decorator: 'Max', convert: bound('maximum', 'number') },
  isLength: {
    decorator: 'Length',
    convert: ([min, max]) => ({
      schema: {
        type: 'string',
        ...(asNumber(min) !== undefined && { minLength: asNumber(min) }),
        ...(asNumber(max) !== undefined && { maxLength: asNumber(max) }),
      },
    }),
  },
  minLength: { decorator: 'MinLength', convert: bound('minLength', 'string') },
  maxLength: { decorator: 'MaxLength', convert: bound('maxLength', 'string') },
  matches: { decorator: 'Matches', convert: matchesPattern },
  isEmail: {
    decorator: 'IsEmail',
    convert: () => ({ schema: { type: 'string', format: 'email' } }),
  },
  isUrl: { decorator: 'IsUrl', convert: () => ({ schema: { type: 'string', format: 'uri' } }) },
  isUuid: { decorator: 'IsUUID', convert: uuidPattern },
  isDateString: { decorator: 'IsDateString', convert: dateStringPattern },
};
