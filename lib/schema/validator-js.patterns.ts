import { createRequire } from 'node:module';

/*
 * Regular expressions of validator.js 13 (https://github.com/validatorjs/validator.js,
 * MIT), the library class-validator's string rules call, copied from its src/lib/*.js:
 * the JSON Schema formats that look alike (`date-time`, `uuid`, `ipv4`, `ipv6`) accept
 * other strings than these functions do, and a schema that says what class-validator
 * accepts needs the functions' own expressions. Where validator.js matches
 * case-insensitively (the `i` flag, which a JSON Schema `pattern` cannot carry), both
 * cases are spelled out. Check them against validator.js when its major version changes.
 */

// isISO8601.js (what @IsDateString() and @IsISO8601() call): ISO 8601 is far wider than
// the RFC 3339 `date-time` format ("2024-01-01", "2024-W01-1", "20240101T1200" all pass).
export const ISO_8601 =
  /^([+-]?\d{4}(?!\d{2}\b))((-?)((0[1-9]|1[0-2])(\3([12]\d|0[1-9]|3[01]))?|W([0-4]\d|5[0-3])(-?[1-7])?|(00[1-9]|0[1-9]\d|[12]\d{2}|3([0-5]\d|6[1-6])))([T\s]((([01]\d|2[0-3])((:?)[0-5]\d)?|24:?00)([.,]\d+(?!:))?)?(\17[0-5]\d([.,]\d+)?)?([zZ]|([+-])([01]\d|2[0-3]):?([0-5]\d)?)?)?)?$/;
/** isISO8601.js with `strictSeparator`: only `T` between the date and the time. */
export const ISO_8601_STRICT_SEPARATOR =
  /^([+-]?\d{4}(?!\d{2}\b))((-?)((0[1-9]|1[0-2])(\3([12]\d|0[1-9]|3[01]))?|W([0-4]\d|5[0-3])(-?[1-7])?|(00[1-9]|0[1-9]\d|[12]\d{2}|3([0-5]\d|6[1-6])))([T]((([01]\d|2[0-3])((:?)[0-5]\d)?|24:?00)([.,]\d+(?!:))?)?(\17[0-5]\d([.,]\d+)?)?([zZ]|([+-])([01]\d|2[0-3]):?([0-5]\d)?)?)?)?$/;

// isUUID.js, by version. `format: uuid` also accepts a `urn:uuid:` prefix and any version
// nibble, so the schema narrows it with exactly the versions asked for.
const HEX = '[0-9a-fA-F]';
const versioned = (nibble: string) =>
  `${HEX}{8}-${HEX}{4}-${nibble}${HEX}{3}-[89abAB]${HEX}{3}-${HEX}{12}`;
const NIL_UUID = '0{8}-0{4}-0{4}-0{4}-0{12}';
const MAX_UUID = '[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12}';
/** `@IsUUID(version)` → the alternatives of its pattern (no anchors). */
export const UUID_ALTERNATIVES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8'].map((v) => [v, versioned(v)])),
  nil: NIL_UUID,
  max: MAX_UUID,
  loose: `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`,
  all: `${versioned('[1-8]')}|${NIL_UUID}|${MAX_UUID}`,
};

// isIP.js (what @IsIP() calls): the `ipv4`/`ipv6` formats differ from it (zone ids such as
// "fe80::1%eth0", for one).
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
/** `@IsIP(version)` → its pattern; an unknown version has none (every value fails). */
export const IP_PATTERNS: Readonly<Record<string, string>> = {
  '4': `^${IPV4}$`,
  '6': `^${IPV6}$`,
  any: `^(?:${IPV4}|${IPV6})$`,
};

// isHexColor.js without options: /^#?([0-9A-F]{3}|[0-9A-F]{4}|[0-9A-F]{6}|[0-9A-F]{8})$/i.
export const HEX_COLOR = '^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';

/** The locale tables of alpha.js, by locale. */
export interface AlphaTables {
  alpha: Record<string, RegExp>;
  alphanumeric: Record<string, RegExp>;
}

// alpha.js for en-US, the default locale: /^[A-Z]+$/i and /^[0-9A-Z]+$/i.
export const DEFAULT_ALPHA: Readonly<Record<keyof AlphaTables, string>> = {
  alpha: '^[A-Za-z]+$',
  alphanumeric: '^[0-9A-Za-z]+$',
};

let alphaTables: AlphaTables | null | undefined;

/**
 * The other locales are not copied: they are read from the validator.js that
 * class-validator itself loads (its dependency, not ours), once, and only when a DTO uses a
 * locale. `null` when that validator.js cannot be found.
 */
export function loadAlphaTables(): AlphaTables | null {
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
