import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Contains,
  Equals,
  IsAlpha,
  IsAlphanumeric,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDefined,
  IsDivisibleBy,
  IsEmail,
  IsEnum,
  IsHexColor,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { KnownSchemaGapId } from '../../lib/schema/known-schema-gaps.js';

/*
 * The DTO shapes the agreement test runs: one per row of the decorator table in
 * docs/schema.md, each with a property `value` and an arbitrary that generates values on
 * both sides of its rules (plus any JSON value, and the property left out). An entry
 * names the KNOWN_SCHEMA_GAPS it may hit, each with the values where the schema and
 * class-validator may disagree; the test asserts that every disagreement falls there and
 * that every listed gap is really met.
 */

/** The property left out of the arguments. */
export const ABSENT = Symbol('absent');

/** Where a gap lets the verdicts differ, as a predicate on the generated value. */
export type GapZone = (value: unknown) => boolean;

export interface CatalogueEntry {
  /** The row of the decorator table. */
  readonly name: string;
  readonly dto: Function;
  readonly values: fc.Arbitrary<unknown>;
  readonly gaps?: Partial<Record<KnownSchemaGapId, GapZone>>;
  /** A rule that accepts every value (`@Allow()`): no rejection to expect. */
  readonly acceptsAll?: true;
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', ' ', '0', '1', 'true', 'null'),
);

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(ABSENT) },
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 3 }) },
);

/** Mostly values aimed at the rules, and some of anything. */
const aimed = (...arbitraries: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 1, arbitrary: anyJson },
    ...arbitraries.map((arbitrary) => ({ weight: 3, arbitrary })),
  );

const isString = (value: unknown): value is string => typeof value === 'string';

// RFC 3339 date-time as the `date-time` format checks it (ajv-formats, full mode).
const formats = new Ajv2020();
addFormats.default(formats);
const isRfc3339DateTime = formats.compile({ type: 'string', format: 'date-time' });
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

/** A key class-transformer drops or class-validator's whitelist lets through, at any depth. */
const hasPrototypeKey = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(hasPrototypeKey);
  if (!isObject(value)) return false;
  return Object.keys(value).some(
    (key) => PROTOTYPE_KEYS.includes(key) || hasPrototypeKey(value[key]),
  );
};

/** Adds, now and then, a key that class-transformer or class-validator mishandle. */
const withOddKeys = (objects: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(
    { weight: 4, arbitrary: objects },
    {
      weight: 1,
      arbitrary: fc
        .tuple(objects, fc.constantFrom(...PROTOTYPE_KEYS, 'extra'), scalar)
        .map(([object, key, value]) => JSON.parse(JSON.stringify({ ...object, [key]: value }))),
    },
  );

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low = 1,
  High = 2,
}

const numbersAround = (center: number) =>
  fc.oneof(
    fc.constantFrom(center, center - 1, center + 1, center - 1e-9, center + 1e-9, 0, -0),
    fc.double({ min: center - 3, max: center + 3, noNaN: true }),
    fc.integer({ min: center - 5, max: center + 5 }),
  );

const stringsOf = (...characters: string[]) =>
  fc.string({ unit: fc.constantFrom(...characters), maxLength: 8 });

// ISO 8601 in every form validator.js knows, and near misses.
const isoDates = fc.oneof(
  fc
    .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .chain((date) =>
      fc.constantFrom(
        date.toISOString(),
        date.toISOString().slice(0, 10),
        date.toISOString().slice(0, 19),
        date.toISOString().replace('Z', '+02:00'),
        date.toISOString().replace('T', ' '),
        date.toISOString().replace('T', 't').replace('Z', 'z'),
        date.toISOString().slice(0, 16).replaceAll('-', '').replaceAll(':', ''),
      ),
    ),
  fc.constantFrom(
    '2024-W05-3',
    '2024-032',
    '2024-02-30',
    '2023-02-29T10:00:00Z',
    '2024-13-01',
    '2016-12-31T23:59:60Z',
    '2024-01-31T24:00:00Z',
    '31/01/2024',
    'Jan 31 2024',
    '2024',
    '+002024-01-31',
  ),
  fc.integer({ min: 0, max: 2_000_000_000_000 }),
);

function IsEven() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEven',
      target: target.constructor,
      propertyName,
      validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 },
    });
}

class AddressDto {
  @IsString() street!: string;
  @Matches(/^\d{5}$/) zip!: string;
}

const addresses = withOddKeys(
  fc.record(
    {
      street: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
      zip: fc.oneof(fc.stringMatching(/^\d{5}$/), fc.string({ maxLength: 6 })),
    },
    { requiredKeys: [] },
  ),
);

class LineDto {
  @IsString() @IsNotEmpty() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

const lines = withOddKeys(
  fc.oneof(
    fc.record({ sku: fc.constant('A-1'), quantity: fc.integer({ min: 1, max: 5 }) }),
    fc.record(
      {
        sku: fc.oneof(fc.constantFrom('', 'A-1'), fc.integer()),
        quantity: numbersAround(1),
      },
      { requiredKeys: [] },
    ),
  ),
);

class AnimalDto {
  @IsString() name!: string;
}
class DogDto extends AnimalDto {
  @IsBoolean() barks!: boolean;
}
class CatDto extends AnimalDto {
  @IsInt() @Min(0) lives!: number;
}
const ANIMAL_KINDS = ['dog', 'cat'];
const animalNames = fc.oneof(fc.constant('Rex'), fc.integer());
const animals = withOddKeys(
  fc.oneof(
    fc.record({ kind: fc.constant('dog'), name: animalNames, barks: fc.boolean() }),
    fc.record({ kind: fc.constant('cat'), name: animalNames, lives: numbersAround(0) }),
    // An unknown kind: class-transformer falls back to the base class.
    fc.record({ kind: fc.constantFrom('fish', 1), name: animalNames }),
    fc.record(
      {
        kind: fc.constantFrom('dog', 'cat', 'fish', 1),
        name: animalNames,
        barks: fc.oneof(fc.boolean(), fc.constant('yes')),
        lives: numbersAround(0),
      },
      { requiredKeys: [] },
    ),
  ),
);

class CategoryDto {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => CategoryDto) children?: CategoryDto[];
}

const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: withOddKeys(
    fc.record(
      {
        name: fc.oneof(fc.constant('a'), fc.integer()),
        children: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          fc.constant(null),
          fc.constant('none'),
          fc.array(tie('tree'), { maxLength: 2 }),
        ),
      },
      { requiredKeys: [] },
    ),
  ),
}));

// Class declarations, not class expressions: the test transform applies legacy
// decorators to declarations only.
class IsStringDto {
  @IsString() value!: string;
}

class IsNumberDto {
  @IsNumber() value!: number;
}

class IsNumberMaxDecimalPlacesDto {
  @IsNumber({ maxDecimalPlaces: 2 }) value!: number;
}

class IsIntDto {
  @IsInt() value!: number;
}

class IsBooleanDto {
  @IsBoolean() value!: boolean;
}

class IsEnumStringEnumDto {
  @IsEnum(Color) value!: Color;
}

class IsEnumNumericEnumDto {
  @IsEnum(Level) value!: Level;
}

class IsInDto {
  @IsIn(['asc', 'desc', 0]) value!: string | number;
}

class IsNotInDto {
  @IsNotIn(['banned', 0]) value!: unknown;
}

class IsObjectDto {
  @IsObject() value!: object;
}

class IsDateWithTypeDateDto {
  @IsDate() @Type(() => Date) value!: Date;
}

class IsDateStringDto {
  @IsDateString() value!: string;
}

class IsDateStringStrictTrueDto {
  @IsDateString({ strict: true }) value!: string;
}

class IsISO8601Dto {
  @IsISO8601() value!: string;
}

class IsNotEmptyDto {
  @IsNotEmpty() value!: unknown;
}

class IsDefinedDto {
  @IsDefined() value!: unknown;
}

class EqualsDto {
  @Equals('on') value!: string;
}

class MinDto {
  @Min(5) value!: number;
}

class MaxDto {
  @Max(5) value!: number;
}

class IsPositiveDto {
  @IsPositive() value!: number;
}

class IsNegativeDto {
  @IsNegative() value!: number;
}

class IsDivisibleByDto {
  @IsDivisibleBy(3) value!: number;
}

class LengthDto {
  @Length(2, 5) value!: string;
}

class MinLengthDto {
  @MinLength(3) value!: string;
}

class MaxLengthDto {
  @MaxLength(3) value!: string;
}

class MatchesDto {
  @Matches(/^[a-z]+\d$/) value!: string;
}

class MatchesWithFlagsDto {
  @Matches(/^abc$/i) value!: string;
}

class ContainsDto {
  @Contains('ab') value!: string;
}

class IsAlphaDto {
  @IsAlpha() value!: string;
}

class IsAlphaALocaleWithACaseFreeAlphabetDto {
  @IsAlpha('he') value!: string;
}

class IsAlphaACaseInsensitiveLocaleDto {
  @IsAlpha('de-DE') value!: string;
}

class IsAlphanumericDto {
  @IsAlphanumeric() value!: string;
}

class IsEmailDto {
  @IsEmail() value!: string;
}

class IsUrlDto {
  @IsUrl() value!: string;
}

class IsUrlWithAProtocolDto {
  @IsUrl({ require_protocol: true }) value!: string;
}

class IsUUIDDto {
  @IsUUID() value!: string;
}

class IsUUIDWithAVersionDto {
  @IsUUID('4') value!: string;
}

class IsIPDto {
  @IsIP() value!: string;
}

class IsIPWithAVersionDto {
  @IsIP('6') value!: string;
}

class IsHexColorDto {
  @IsHexColor() value!: string;
}

class IsArrayDto {
  @IsArray() value!: unknown[];
}

class ArrayMinSizeDto {
  @ArrayMinSize(2) value!: unknown[];
}

class ArrayMaxSizeDto {
  @ArrayMaxSize(2) value!: unknown[];
}

class ArrayNotEmptyDto {
  @ArrayNotEmpty() value!: unknown[];
}

class ArrayUniqueDto {
  @ArrayUnique() value!: unknown[];
}

class EachTrueDto {
  @IsInt({ each: true }) @Min(0, { each: true }) value!: number[];
}

class ValidateNestedWithTypeDto {
  @IsDefined() @ValidateNested() @Type(() => AddressDto) value!: AddressDto;
}

class ValidateNestedWithoutIsDefinedDto {
  @ValidateNested() @Type(() => AddressDto) value!: AddressDto;
}

class ArrayOfDTOsDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => LineDto) value!: LineDto[];
}

class DiscriminatedTypeSubtypesDto {
  @IsDefined()
  @ValidateNested()
  @Type(() => AnimalDto, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'dog', value: DogDto },
        { name: 'cat', value: CatDto },
      ],
    },
  })
  value!: DogDto | CatDto;
}

class RecursiveDTODto {
  @IsDefined() @ValidateNested() @Type(() => CategoryDto) value!: CategoryDto;
}

class AllowDto {
  @Allow() value?: unknown;
}

class IsOptionalDto {
  @IsOptional() @IsInt() @Min(0) value?: number;
}

class IsOptionalOnANestedDTODto {
  @IsOptional() @ValidateNested() @Type(() => AddressDto) value?: AddressDto;
}

class PropertyInitializerDefaultDto {
  @IsOptional() @IsInt() @Min(1) @Max(100) value = 10;
}

class ValidateIfDto {
  @ValidateIf((dto: { value?: unknown }) => dto.value !== 'skip') @IsInt() value?: number;
}

class CustomValidatorDto {
  @IsInt() @IsEven() value!: number;
}

class TypeNumberConversionDto {
  @Type(() => Number) @IsInt() value!: number;
}

/** One DTO class per row, `value` as its only property. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  // --- Type checkers -----------------------------------------------------------------
  {
    name: 'IsString',
    dto: IsStringDto,
    values: aimed(fc.string()),
  },
  {
    name: 'IsNumber',
    dto: IsNumberDto,
    values: aimed(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
  },
  {
    name: 'IsNumber({ maxDecimalPlaces })',
    dto: IsNumberMaxDecimalPlacesDto,
    values: aimed(
      fc.integer({ min: -10_000, max: 10_000 }).map((n) => n / 100),
      fc.integer({ min: -10_000, max: 10_000 }).map((n) => n / 1000),
    ),
    gaps: { 'number-decimal-places': (value) => typeof value === 'number' },
  },
  {
    name: 'IsInt',
    dto: IsIntDto,
    values: aimed(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(2 ** 53, 1e21, 1.5)),
  },
  {
    name: 'IsBoolean',
    dto: IsBooleanDto,
    values: aimed(fc.boolean(), fc.constantFrom('true', 0, 1)),
  },
  {
    name: 'IsEnum (string enum)',
    dto: IsEnumStringEnumDto,
    values: aimed(fc.constantFrom('red', 'blue', 'Red', 'RED', 'green')),
  },
  {
    name: 'IsEnum (numeric enum)',
    dto: IsEnumNumericEnumDto,
    values: aimed(fc.constantFrom(1, 2, 3, '1', 'Low', 'High', 'low')),
    gaps: { 'numeric-enum-reverse-mapping': (value) => value === 'Low' || value === 'High' },
  },
  {
    name: 'IsIn',
    dto: IsInDto,
    values: aimed(fc.constantFrom('asc', 'desc', 0, '0', false, 'ASC')),
  },
  {
    name: 'IsNotIn',
    dto: IsNotInDto,
    values: aimed(fc.constantFrom('banned', 0, '0', 'ok', null)),
    gaps: { 'missing-value': (value) => value === ABSENT },
  },
  {
    name: 'IsObject',
    dto: IsObjectDto,
    values: aimed(fc.object({ maxDepth: 1, maxKeys: 3 }), fc.array(scalar, { maxLength: 2 })),
  },
  {
    name: 'IsDate with @Type(() => Date)',
    dto: IsDateWithTypeDateDto,
    values: aimed(isoDates),
    gaps: { 'date-instance': (value) => !isRfc3339DateTime(value) },
  },
  {
    name: 'IsDateString',
    dto: IsDateStringDto,
    values: aimed(isoDates),
  },
  {
    name: 'IsDateString({ strict: true })',
    dto: IsDateStringStrictTrueDto,
    values: aimed(isoDates),
    gaps: { 'date-string-strict': isString },
  },
  {
    name: 'IsISO8601',
    dto: IsISO8601Dto,
    values: aimed(isoDates),
  },
  {
    name: 'IsNotEmpty',
    dto: IsNotEmptyDto,
    values: aimed(fc.constantFrom('', ' ', null, ABSENT, 0, false, [])),
  },
  {
    name: 'IsDefined',
    dto: IsDefinedDto,
    values: aimed(fc.constantFrom(null, ABSENT, 0, '', false)),
  },
  {
    name: 'Equals',
    dto: EqualsDto,
    values: aimed(fc.constantFrom('on', 'On', 'off', true)),
  },
  // --- Numbers -------------------------------------------------------------------------
  {
    name: 'Min',
    dto: MinDto,
    values: aimed(numbersAround(5)),
  },
  {
    name: 'Max',
    dto: MaxDto,
    values: aimed(numbersAround(5)),
  },
  {
    name: 'IsPositive',
    dto: IsPositiveDto,
    values: aimed(numbersAround(0), fc.constantFrom(1e-300, -1e-300)),
  },
  {
    name: 'IsNegative',
    dto: IsNegativeDto,
    values: aimed(numbersAround(0), fc.constantFrom(1e-300, -1e-300)),
  },
  {
    name: 'IsDivisibleBy',
    dto: IsDivisibleByDto,
    values: aimed(
      numbersAround(3),
      fc.integer({ min: -30, max: 30 }),
      fc.constantFrom(1e21, 0.3, 5e-324),
    ),
    gaps: {
      'multiple-of-precision': (v) =>
        typeof v === 'number' && (Math.abs(v) >= 2 ** 53 || (v !== 0 && Math.abs(v) < 1e-300)),
    },
  },
  // --- Strings -------------------------------------------------------------------------
  {
    name: 'Length',
    dto: LengthDto,
    values: aimed(
      fc.string({ maxLength: 7 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom('a\uFE0F', 'ab\uFE0E', '🦊🦊', '🦊🦊🦊🦊🦊🦊'),
    ),
    gaps: { 'length-presentation-selectors': (v) => isString(v) && /[\uFE0E\uFE0F]/.test(v) },
  },
  {
    name: 'MinLength',
    dto: MinLengthDto,
    values: aimed(fc.string({ maxLength: 5 }), fc.constantFrom('ab\uFE0F', '🦊🦊')),
    gaps: { 'length-presentation-selectors': (v) => isString(v) && /[\uFE0E\uFE0F]/.test(v) },
  },
  {
    name: 'MaxLength',
    dto: MaxLengthDto,
    values: aimed(fc.string({ maxLength: 5 }), fc.constantFrom('abc\uFE0F', '🦊🦊🦊')),
    gaps: { 'length-presentation-selectors': (v) => isString(v) && /[\uFE0E\uFE0F]/.test(v) },
  },
  {
    name: 'Matches',
    dto: MatchesDto,
    values: aimed(fc.stringMatching(/^[a-z]+\d$/), stringsOf('a', 'Z', '1', '-')),
  },
  {
    name: 'Matches with flags',
    dto: MatchesWithFlagsDto,
    values: aimed(fc.constantFrom('abc', 'ABC', 'aBc', 'abd')),
    gaps: { 'matches-flags': isString },
  },
  {
    name: 'Contains',
    dto: ContainsDto,
    values: aimed(stringsOf('a', 'b', 'c'), fc.constantFrom('ab', 'a.b', 'a|b')),
  },
  {
    name: 'IsAlpha',
    dto: IsAlphaDto,
    values: aimed(stringsOf('a', 'Z', '1', ' ', 'é')),
  },
  {
    name: 'IsAlpha (a locale with a case-free alphabet)',
    dto: IsAlphaALocaleWithACaseFreeAlphabetDto,
    values: aimed(stringsOf('א', 'ב', 'a', '1')),
  },
  {
    name: 'IsAlpha (a case-insensitive locale)',
    dto: IsAlphaACaseInsensitiveLocaleDto,
    values: aimed(stringsOf('a', 'Ä', 'ß', '1')),
    gaps: { 'locale-pattern': isString },
  },
  {
    name: 'IsAlphanumeric',
    dto: IsAlphanumericDto,
    values: aimed(stringsOf('a', 'Z', '1', ' ', '_')),
  },
  {
    name: 'IsEmail',
    dto: IsEmailDto,
    values: aimed(
      fc.emailAddress(),
      fc.constantFrom('ada@', 'ada@localhost', 'josé@example.com', 'ada@example.123'),
    ),
    gaps: { 'email-format': isString },
  },
  {
    name: 'IsUrl',
    dto: IsUrlDto,
    values: aimed(
      fc.webUrl(),
      fc.constantFrom('example.com', 'http://localhost:3000', 'mailto:a@b.co', 'not a url'),
    ),
    gaps: { 'url-format': isString },
  },
  {
    name: 'IsUrl({ require_protocol: true })',
    dto: IsUrlWithAProtocolDto,
    values: aimed(
      fc.webUrl(),
      fc.constantFrom('example.com', 'http://localhost:3000', 'https://bücher.de', 'not a url'),
    ),
    gaps: { 'url-format': isString },
  },
  {
    name: 'IsUUID',
    dto: IsUUIDDto,
    values: aimed(
      fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8, 9, 15] }),
      fc.uuid().map((uuid) => uuid.toUpperCase()),
      fc.constantFrom(
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
      ),
    ),
  },
  {
    name: 'IsUUID with a version',
    dto: IsUUIDWithAVersionDto,
    values: aimed(fc.uuid({ version: [1, 4, 7] })),
  },
  {
    name: 'IsIP',
    dto: IsIPDto,
    values: aimed(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4Extended(),
      fc.constantFrom('fe80::1%eth0', '256.1.1.1', '01.2.3.4', '::ffff:1.2.3.4', '1:2:3'),
    ),
  },
  {
    name: 'IsIP with a version',
    dto: IsIPWithAVersionDto,
    values: aimed(fc.ipV4(), fc.ipV6(), fc.constantFrom('fe80::1%eth0', '::')),
  },
  {
    name: 'IsHexColor',
    dto: IsHexColorDto,
    values: aimed(fc.stringMatching(/^#?[0-9a-fA-FgG]{2,9}$/)),
  },
  // --- Arrays --------------------------------------------------------------------------
  {
    name: 'IsArray',
    dto: IsArrayDto,
    values: aimed(fc.array(scalar, { maxLength: 3 })),
  },
  {
    name: 'ArrayMinSize',
    dto: ArrayMinSizeDto,
    values: aimed(fc.array(scalar, { maxLength: 4 })),
  },
  {
    name: 'ArrayMaxSize',
    dto: ArrayMaxSizeDto,
    values: aimed(fc.array(scalar, { maxLength: 4 })),
  },
  {
    name: 'ArrayNotEmpty',
    dto: ArrayNotEmptyDto,
    values: aimed(fc.array(scalar, { maxLength: 2 })),
  },
  {
    name: 'ArrayUnique',
    dto: ArrayUniqueDto,
    values: aimed(
      fc.array(fc.constantFrom(0, 1, 'a', '1', true, null), { maxLength: 4 }),
      fc.constantFrom([{ a: 1 }, { a: 1 }], [[1], [1]], [{ a: 1 }, { a: 2 }]),
    ),
    gaps: {
      'array-unique': (v) => Array.isArray(v) && v.some((i) => i !== null && typeof i === 'object'),
    },
  },
  {
    name: 'each: true',
    dto: EachTrueDto,
    values: aimed(fc.array(numbersAround(0), { maxLength: 3 }), numbersAround(0)),
    gaps: { 'each-single-value': (value) => !Array.isArray(value) },
  },
  // --- Nested --------------------------------------------------------------------------
  {
    name: 'ValidateNested with @Type()',
    dto: ValidateNestedWithTypeDto,
    values: aimed(addresses, fc.array(addresses, { maxLength: 2 }), fc.constant([])),
    gaps: {
      'nested-array-or-object': (value) => Array.isArray(value),
      'prototype-keys': hasPrototypeKey,
    },
  },
  {
    name: 'ValidateNested without @IsDefined()',
    dto: ValidateNestedWithoutIsDefinedDto,
    values: aimed(addresses, fc.constantFrom(ABSENT, [])),
    gaps: {
      'missing-value': (value) => value === ABSENT,
      'nested-array-or-object': (value) => Array.isArray(value),
      'prototype-keys': hasPrototypeKey,
    },
  },
  {
    name: 'Array of DTOs',
    dto: ArrayOfDTOsDto,
    values: aimed(fc.array(lines, { maxLength: 3 })),
    gaps: { 'prototype-keys': hasPrototypeKey },
  },
  {
    name: 'Discriminated @Type() subtypes',
    dto: DiscriminatedTypeSubtypesDto,
    values: aimed(animals, fc.constant([])),
    gaps: {
      'discriminator-fallback': (v) => isObject(v) && !ANIMAL_KINDS.includes(v.kind as string),
      'nested-array-or-object': (value) => Array.isArray(value),
      'prototype-keys': hasPrototypeKey,
    },
  },
  {
    name: 'Recursive DTO',
    dto: RecursiveDTODto,
    values: aimed(tree, fc.constant([])),
    gaps: {
      'nested-array-or-object': (value) => Array.isArray(value),
      'prototype-keys': hasPrototypeKey,
    },
  },
  // --- Presence ------------------------------------------------------------------------
  {
    name: 'Allow',
    dto: AllowDto,
    values: aimed(fc.constantFrom(ABSENT, null)),
    acceptsAll: true,
  },
  {
    name: 'IsOptional',
    dto: IsOptionalDto,
    values: aimed(fc.constantFrom(ABSENT, null, 0, -1, '1')),
  },
  {
    name: 'IsOptional on a nested DTO',
    dto: IsOptionalOnANestedDTODto,
    values: aimed(addresses, fc.constantFrom(ABSENT, null, [])),
    gaps: {
      'nested-array-or-object': (value) => Array.isArray(value),
      'prototype-keys': hasPrototypeKey,
    },
  },
  {
    name: 'Property initializer (default)',
    dto: PropertyInitializerDefaultDto,
    values: aimed(fc.constantFrom(ABSENT, null, 0, 1, 100, 101)),
  },
  {
    name: 'ValidateIf',
    dto: ValidateIfDto,
    values: aimed(fc.constantFrom(ABSENT, null, 'skip', 1)),
    gaps: { 'validate-if': (value) => value === ABSENT || value === 'skip' },
  },
  {
    name: 'Custom validator',
    dto: CustomValidatorDto,
    values: aimed(fc.integer({ min: -10, max: 10 })),
    gaps: { 'custom-validator': (value) => Number.isInteger(value) && (value as number) % 2 !== 0 },
  },
  {
    name: '@Type(() => Number) conversion',
    dto: TypeNumberConversionDto,
    values: aimed(fc.constantFrom('5', '5.5', true, 5)),
    gaps: { 'type-conversion': (value) => typeof value === 'string' || typeof value === 'boolean' },
  },
];
