import { createRequire } from 'node:module';
import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';

/**
 * Every place where the generated schema and class-validator, on its own, disagree: the
 * one list of known gaps (docs/schema.md shows it too). The server checks each call
 * against both the schema and class-validator, so what a gap means depends on `schema`:
 *
 * - `looser`: the schema lets through values that the server rejects, because the rule
 *   is enforced at call time only. These are the real gaps between what a client is told
 *   and what the server accepts.
 * - `stricter`: class-validator alone would accept values that the schema rejects. The
 *   server rejects them too, so the schema stays exact; the entry is here because the DTO
 *   accepts less than behind a plain `ValidationPipe`.
 * - `both`: the server accepts only what both accept, so the schema is looser for some
 *   values and stricter than class-validator for others.
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
    id: 'locale-pattern',
    validators: ['isAlpha', 'isAlphanumeric'],
    schema: 'looser',
    notice: true,
    reason:
      'validator.js matches most IsAlpha()/IsAlphanumeric() locales case-insensitively (the ' +
      '`i` flag), which a JSON Schema pattern cannot say; only en-US (the default) and the ' +
      'locales without the flag get a pattern.',
  },
  {
    id: 'date-string-strict',
    validators: ['isDateString', 'isIso8601'],
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
    id: 'multiple-of-precision',
    validators: ['isDivisibleBy'],
    schema: 'both',
    notice: false,
    reason:
      'Ajv checks `multipleOf` by dividing and testing the quotient with parseInt, which ' +
      'goes wrong beyond 2^53 (1e21 passes as a multiple of 3, -6e150 fails) and for numbers ' +
      'so small that the quotient underflows to 0 (5e-324 passes); validator.js takes the ' +
      'remainder. Numbers of an ordinary size are not affected.',
  },
  {
    id: 'custom-validator',
    validators: [],
    schema: 'looser',
    notice: true,
    reason:
      'Validators without a converter (@Validate(), registerDecorator(), @IsPhoneNumber() and ' +
      'other built-ins not in VALIDATION_CONSTRAINT_CONVERTERS) add nothing to the schema.',
  },
  {
    id: 'array-unique',
    validators: ['arrayUnique'],
    schema: 'both',
    notice: false,
    reason:
      '`uniqueItems` compares items by value; class-validator compares them with `===`, so ' +
      'two equal objects count as different for it, and the identifier function of ' +
      '@ArrayUnique(fn) is not visible in its metadata.',
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
    id: 'missing-value',
    validators: ['nestedValidation', 'isNotIn'],
    schema: 'stricter',
    notice: true,
    reason:
      'A property without @IsOptional() is listed as required, as its TypeScript type says, ' +
      'but class-validator lets a missing value through rules that accept `undefined`: ' +
      '@ValidateNested() skips it, and @IsNotIn() passes it. Add @IsDefined() (or ' +
      '@IsOptional()) so that a plain ValidationPipe agrees.',
  },
  {
    id: 'validate-if',
    validators: ['conditionalValidation'],
    schema: 'both',
    notice: true,
    reason:
      '@ValidateIf() and the `validateIf` option switch rules off per value; the schema ' +
      'cannot express the condition, so the property is optional (class-validator may still ' +
      'ask for it) and its rules always apply (class-validator may skip them).',
  },
  {
    id: 'prototype-keys',
    validators: ['whitelistValidation'],
    schema: 'stricter',
    notice: false,
    reason:
      'class-transformer silently drops the keys `__proto__`, `constructor` and names of the ' +
      "DTO's methods, and class-validator's whitelist lets names of Object.prototype members " +
      '(`hasOwnProperty`) through; the schema, and so the server, rejects them as unknown.',
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
    id: 'date-instance',
    validators: ['isDate'],
    schema: 'stricter',
    notice: false,
    reason:
      '@IsDate() with @Type(() => Date) accepts whatever `new Date(value)` understands ' +
      '(numbers, "2024-01-31", "Jan 31 2024", even 2023-02-30); the schema asks for an RFC 3339 ' +
      'date-time string (seconds 00-59, as `new Date()` rejects leap seconds).',
  },
  {
    id: 'type-conversion',
    validators: [],
    schema: 'stricter',
    notice: false,
    reason:
      '@Type(() => Number), @Type(() => String) and @Type(() => Boolean) convert a value ' +
      'before class-validator sees it ("5" becomes 5); the schema states the type the rules ' +
      'ask for, without the conversion.',
  },
  {
    id: 'discriminator-fallback',
    validators: ['nestedValidation'],
    schema: 'stricter',
    notice: false,
    reason:
      'With @Type(() => Base, { discriminator }) an unknown discriminator value makes ' +
      'class-transformer fall back to Base; the schema (`oneOf` of the subtypes) rejects it.',
  },
  {
    id: 'length-presentation-selectors',
    validators: ['isLength', 'minLength', 'maxLength'],
    schema: 'both',
    notice: false,
    reason:
      'validator.js isLength does not count the emoji presentation selectors U+FE0E and ' +
      'U+FE0F; JSON Schema counts every code point. A string with them is longer for the ' +
      'schema: it may pass `minLength` and fail the rule, or fail `maxLength` and pass it.',
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
  /**
   * Set when the rule, as written, cannot be published honestly (for example
   * `@Contains('')`); the factory refuses the DTO at bootstrap with this text.
   */
  readonly refusal?: { readonly problem: string; readonly fix: string };
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

// validator.js 13 `isIP` (what @IsIP() calls), copied for the same reason as ISO_8601:
// the `ipv4`/`ipv6` formats differ from it (zone ids such as "fe80::1%eth0", for one).
const IPV4_SEGMENT = '(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])';
const IPV4 = `(${IPV4_SEGMENT}[.]){3}${IPV4_SEGMENT}`;
const IPV6_SEGMENT = '(?:[0-9a-fA-F]{1,4})';
const IPV6 =
  '(' +
  `(?:${IPV6_SEGMENT}:){7}(?:${IPV6_SEGMENT}|:)|` +
  `(?:${IPV6_SEGMENT}:){6}(?:${IPV4}|:${IPV6_SEGMENT}|:)|` +
  `(?:${IPV6_SEGMENT}:){5}(?::${IPV4}|(:${IPV6_SEGMENT}){1,2}|:)|` +
  `(?:${IPV6_SEGMENT}:){4}(?:(:${IPV6_SEGMENT}){0,1}:${IPV4}|(:${IPV6_SEGMENT}){1,3}|:)|` +
  `(?:${IPV6_SEGMENT}:){3}(?:(:${IPV6_SEGMENT}){0,2}:${IPV4}|(:${IPV6_SEGMENT}){1,4}|:)|` +
  `(?:${IPV6_SEGMENT}:){2}(?:(:${IPV6_SEGMENT}){0,3}:${IPV4}|(:${IPV6_SEGMENT}){1,5}|:)|` +
  `(?:${IPV6_SEGMENT}:){1}(?:(:${IPV6_SEGMENT}){0,4}:${IPV4}|(:${IPV6_SEGMENT}){1,6}|:)|` +
  `(?::((?::${IPV6_SEGMENT}){0,5}:${IPV4}|(?::${IPV6_SEGMENT}){1,7}|:))` +
  ')(%[0-9a-zA-Z.]{1,})?';
const IP_PATTERNS: Readonly<Record<string, string>> = {
  '4': `^${IPV4}$`,
  '6': `^${IPV6}$`,
  any: `^(?:${IPV4}|${IPV6})$`,
};

// validator.js `isHexColor` without options: /^#?([0-9A-F]{3}|...)$/i, case spelled out.
const HEX_COLOR = '^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';

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

// Characters that need a backslash to be literal in a Unicode-mode regex. Escaping any
// other character (such as `-`) is a syntax error in that mode.
const escapeForPattern = (literal: string): string =>
  literal.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');

const typeOnly = (type: JsonSchemaTypeName): ValidationConstraintConverter['convert'] => {
  return () => ({ schema: { type } });
};

const fixed = (schema: JsonSchema): ValidationConstraintConverter['convert'] => {
  return () => ({ schema });
};

const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const options = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** Rejects every value, as class-validator does for a rule no value can pass. */
const NOTHING: JsonSchema = { not: {} };

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

const dateStringPattern = (decorator: string) => {
  return (constraints: readonly unknown[]): ConstraintConversion => {
    const { strict, strictSeparator } = options(constraints[0]);
    const regex = strictSeparator ? ISO_8601_STRICT_SEPARATOR : ISO_8601;
    const schema: JsonSchema = { type: 'string', pattern: regex.source };
    if (!strict) return { schema };
    const detail = `@${decorator}({ strict: true }) also rejects impossible dates at call time`;
    return { schema, gaps: [{ gap: 'date-string-strict', detail }] };
  };
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

// validator.js isDivisibleBy computes `value % parseInt(num, 10)`, so 2.5 means 2, and
// class-validator rejects everything when the divisor is not a number.
const divisibleBy = (constraints: readonly unknown[]): ConstraintConversion => {
  const divisor =
    typeof constraints[0] === 'number' ? Number.parseInt(String(constraints[0]), 10) : NaN;
  if (!Number.isFinite(divisor) || divisor === 0) return { schema: { type: 'number', ...NOTHING } };
  return { schema: { type: 'number', multipleOf: Math.abs(divisor) } };
};

const containsPattern = (constraints: readonly unknown[]): ConstraintConversion => {
  const seed = String(constraints[0] ?? '');
  if (seed === '') {
    return {
      schema: { type: 'string' },
      refusal: {
        problem:
          '@Contains(\'\') does not mean "any string": validator.js rejects strings shorter ' +
          'than two characters for it.',
        fix: 'Remove it, or use @MinLength() for a length.',
      },
    };
  }
  return { schema: { type: 'string', pattern: escapeForPattern(seed) } };
};

interface AlphaTables {
  alpha: Record<string, RegExp>;
  alphanumeric: Record<string, RegExp>;
}

let alphaTables: AlphaTables | null | undefined;

// The locale tables of the validator.js that class-validator itself loads (it is its
// dependency, not ours), read once and only when a DTO uses a locale.
function loadAlphaTables(): AlphaTables | null {
  if (alphaTables !== undefined) return alphaTables;
  try {
    const fromHere = createRequire(import.meta.url);
    const fromClassValidator = createRequire(fromHere.resolve('class-validator'));
    alphaTables = fromClassValidator('validator/lib/alpha') as AlphaTables;
  } catch {
    alphaTables = null;
  }
  return alphaTables;
}

const DEFAULT_ALPHA: Readonly<Record<keyof AlphaTables, string>> = {
  alpha: '^[A-Za-z]+$',
  alphanumeric: '^[0-9A-Za-z]+$',
};

const alphaPattern = (table: keyof AlphaTables, decorator: string) => {
  return (constraints: readonly unknown[]): ConstraintConversion => {
    const locale = typeof constraints[0] === 'string' && constraints[0] ? constraints[0] : 'en-US';
    if (locale === 'en-US') return { schema: { type: 'string', pattern: DEFAULT_ALPHA[table] } };
    const regex = loadAlphaTables()?.[table][locale];
    if (!regex) {
      return {
        schema: { type: 'string' },
        refusal: {
          problem: `@${decorator}('${locale}') names a locale validator.js does not know, so every call would fail.`,
          fix: `Use one of validator.js's locales, such as '${locale.slice(0, 2)}-${locale.slice(0, 2).toUpperCase()}'.`,
        },
      };
    }
    if (regex.flags === '' && isUnicodeRegex(regex.source)) {
      return { schema: { type: 'string', pattern: regex.source } };
    }
    const detail = `@${decorator}('${locale}') is case-insensitive; it is enforced at call time only`;
    return { schema: { type: 'string' }, gaps: [{ gap: 'locale-pattern', detail }] };
  };
};

const ipPattern = (constraints: readonly unknown[]): ConstraintConversion => {
  const version = constraints[0] ? String(constraints[0]) : 'any';
  const pattern = IP_PATTERNS[version];
  return { schema: pattern ? { type: 'string', pattern } : { type: 'string', ...NOTHING } };
};

const equalsValue = (constraints: readonly unknown[]): ConstraintConversion => {
  const [value] = constraints;
  if (!jsonComparable(value)) return { schema: NOTHING };
  const types = typesOfValues([value]);
  return { schema: { ...(types && { type: types[0] }), const: value } };
};

/**
 * class-validator validator name (as `getTargetValidatorConstraints(...)[0].name` reports
 * it) → JSON Schema keywords. One table, so supporting another decorator is one entry.
 * `@IsDefined()` and `@ValidateNested()` are metadata types of their own, handled by the
 * factory, as is the `@Type(() => Date)` that `@IsDate()` needs.
 */
export const VALIDATION_CONSTRAINT_CONVERTERS: Readonly<
  Record<string, ValidationConstraintConverter>
> = {
  // Type checkers.
  isString: { decorator: 'IsString', convert: typeOnly('string') },
  isInt: { decorator: 'IsInt', convert: typeOnly('integer') },
  isNumber: { decorator: 'IsNumber', convert: numberType },
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
  // Numbers. class-validator's min/max reject anything but a number, hence the type.
  min: { decorator: 'Min', convert: bound('minimum', 'number') },
  max: { decorator: 'Max', convert: bound('maximum', 'number') },
  isPositive: { decorator: 'IsPositive', convert: fixed({ type: 'number', exclusiveMinimum: 0 }) },
  isNegative: { decorator: 'IsNegative', convert: fixed({ type: 'number', exclusiveMaximum: 0 }) },
  isDivisibleBy: { decorator: 'IsDivisibleBy', convert: divisibleBy },
  // Strings.
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
  contains: { decorator: 'Contains', convert: containsPattern },
  isAlpha: { decorator: 'IsAlpha', convert: alphaPattern('alpha', 'IsAlpha') },
  isAlphanumeric: {
    decorator: 'IsAlphanumeric',
    convert: alphaPattern('alphanumeric', 'IsAlphanumeric'),
  },
  isEmail: { decorator: 'IsEmail', convert: fixed({ type: 'string', format: 'email' }) },
  isUrl: { decorator: 'IsUrl', convert: fixed({ type: 'string', format: 'uri' }) },
  isUuid: { decorator: 'IsUUID', convert: uuidPattern },
  isIp: { decorator: 'IsIP', convert: ipPattern },
  isHexColor: { decorator: 'IsHexColor', convert: fixed({ type: 'string', pattern: HEX_COLOR }) },
  isDateString: { decorator: 'IsDateString', convert: dateStringPattern('IsDateString') },
  isIso8601: { decorator: 'IsISO8601', convert: dateStringPattern('IsISO8601') },
  // Arrays. Each of these rejects a value that is not an array.
  arrayMinSize: { decorator: 'ArrayMinSize', convert: bound('minItems', 'array') },
  arrayMaxSize: { decorator: 'ArrayMaxSize', convert: bound('maxItems', 'array') },
  arrayNotEmpty: { decorator: 'ArrayNotEmpty', convert: fixed({ type: 'array', minItems: 1 }) },
  arrayUnique: { decorator: 'ArrayUnique', convert: fixed({ type: 'array', uniqueItems: true }) },
};
