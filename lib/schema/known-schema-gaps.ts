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
 * decorator and apply to every use of it. From this list, schema-exactness.reader.ts decides
 * which DTOs a valid call may check with the schema alone (a `looser` or `both` gap keeps
 * class-validator running), so a new entry needs no change there.
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
      'The `uri` format needs a scheme, and validator.js isURL by default does not ' +
      '("example.com" passes), so @IsUrl() lists no format: the schema takes any string and ' +
      'isURL decides at call time (it allows only http, https and ftp, and needs a top-level ' +
      'domain: "http://localhost" fails). @IsUrl({ require_protocol: true }) lists ' +
      '`format: uri`, which accepts any scheme and host but no non-ASCII character.',
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
