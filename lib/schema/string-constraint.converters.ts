import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type {
  ConstraintConversion,
  ConstraintConverters,
} from './constraint-converter.interface.js';
import { asNumber, bound, fixed, NOTHING, options } from './constraint-converter.helpers.js';
import {
  DEFAULT_ALPHA,
  HEX_COLOR,
  IP_PATTERNS,
  ISO_8601,
  ISO_8601_STRICT_SEPARATOR,
  loadAlphaTables,
  UUID_ALTERNATIVES,
  type AlphaTables,
} from './validator-js.patterns.js';

// `g` and `d` do not change what a regex matches with `String#match`, and `u` is how JSON
// Schema patterns are compiled anyway.
const FLAGS_PATTERN_CAN_CARRY = new Set(['g', 'd', 'u']);

// Characters that need a backslash to be literal in a Unicode-mode regex. Escaping any
// other character (such as `-`) is a syntax error in that mode.
const escapeForPattern = (literal: string): string =>
  literal.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');

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

// The `uri` format needs a scheme; validator.js isURL needs one only when asked to. A
// `format` that refused "example.com" would make the schema stricter than the DTO, so a
// URL without `require_protocol` is left to isURL at call time (the url-format gap).
const urlFormat = (constraints: readonly unknown[]): ConstraintConversion =>
  options(constraints[0]).require_protocol === true
    ? { schema: { type: 'string', format: 'uri' } }
    : { schema: { type: 'string' } };

/** Strings, their lengths, patterns and formats. */
export const STRING_CONSTRAINT_CONVERTERS: ConstraintConverters = {
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
  isUrl: { decorator: 'IsUrl', convert: urlFormat },
  isUuid: { decorator: 'IsUUID', convert: uuidPattern },
  isIp: { decorator: 'IsIP', convert: ipPattern },
  isHexColor: { decorator: 'IsHexColor', convert: fixed({ type: 'string', pattern: HEX_COLOR }) },
  isDateString: { decorator: 'IsDateString', convert: dateStringPattern('IsDateString') },
  isIso8601: { decorator: 'IsISO8601', convert: dateStringPattern('IsISO8601') },
};
