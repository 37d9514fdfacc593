import { contains, isAlpha, isIP, isUUID, matches } from 'class-validator';
import { describe, expect, it } from 'vitest';
import type { ConstraintConversion } from '../../lib/schema/constraint-converter.interface.js';
import { STRING_CONSTRAINT_CONVERTERS } from '../../lib/schema/string-constraint.converters.js';

/** What the converter of a class-validator validator makes of the decorator's arguments. */
const convert = (validator: string, ...constraints: unknown[]): ConstraintConversion =>
  STRING_CONSTRAINT_CONVERTERS[validator]!.convert(constraints);

/** The `pattern` of a conversion, compiled as JSON Schema validators compile it. */
function patternOf(conversion: ConstraintConversion): RegExp {
  const { pattern } = conversion.schema;
  if (typeof pattern !== 'string') throw new Error('the conversion has no pattern');
  return new RegExp(pattern, 'u');
}

describe('STRING_CONSTRAINT_CONVERTERS: lengths', () => {
  it('turns @Length(min, max) into both bounds, and leaves out a bound that is not a number', () => {
    expect(convert('isLength', 2, 5)).toEqual({
      schema: { type: 'string', minLength: 2, maxLength: 5 },
    });
    expect(convert('isLength', 2)).toEqual({ schema: { type: 'string', minLength: 2 } });
    expect(convert('isLength', Number.NaN, Number.POSITIVE_INFINITY)).toEqual({
      schema: { type: 'string' },
    });
  });

  it('turns @MinLength() and @MaxLength() into one bound each', () => {
    expect(convert('minLength', 3)).toEqual({ schema: { type: 'string', minLength: 3 } });
    expect(convert('maxLength', 8)).toEqual({ schema: { type: 'string', maxLength: 8 } });
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: @Matches()', () => {
  it('publishes the source of a regex whose flags do not change what it matches', () => {
    expect(convert('matches', /^[a-z]+$/g)).toEqual({
      schema: { type: 'string', pattern: '^[a-z]+$' },
    });
    expect(convert('matches', '^\\d{3}$', 'u')).toEqual({
      schema: { type: 'string', pattern: '^\\d{3}$' },
    });
  });

  it('leaves out a pattern with a flag JSON Schema cannot carry, and reports the gap', () => {
    expect(convert('matches', /^abc$/im)).toEqual({
      schema: { type: 'string' },
      gaps: [
        {
          gap: 'matches-flags',
          detail:
            '@Matches(/^abc$/im) uses the i, m flag(s); its pattern is enforced at call time only',
        },
      ],
    });
    // The modifiers form is read the same way.
    expect(convert('matches', '^abc$', 'i').gaps).toEqual([
      {
        gap: 'matches-flags',
        detail: '@Matches(/^abc$/i) uses the i flag(s); its pattern is enforced at call time only',
      },
    ]);
  });

  it('ignores the modifiers argument next to a RegExp, as validator.js does', () => {
    expect(convert('matches', /^abc$/, 'i')).toEqual({
      schema: { type: 'string', pattern: '^abc$' },
    });
    // Its types forbid the call; users of plain JavaScript may still make it.
    const untyped = matches as (value: string, pattern: RegExp, modifiers: string) => boolean;
    expect(untyped('ABC', /^abc$/, 'i')).toBe(false);
  });

  it('leaves out a regex that is not valid in Unicode mode, and reports the gap', () => {
    // `\-` outside a class: valid without the u flag only.
    expect(convert('matches', new RegExp('^a\\-b$'))).toEqual({
      schema: { type: 'string' },
      gaps: [
        {
          gap: 'matches-syntax',
          detail:
            '@Matches(/^a\\-b$/) is not a valid Unicode regex; its pattern is enforced at call time only',
        },
      ],
    });
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: @Contains()', () => {
  it('matches the seed literally, special characters included', () => {
    const seed = 'a.b(c)[d]{2}|^$*+?\\/-';
    const pattern = patternOf(convert('contains', seed));
    expect(pattern.test(`xx${seed}yy`)).toBe(true);
    expect(contains(`xx${seed}yy`, seed)).toBe(true);
    expect(pattern.test('a-b(c)[d]{2}|^$*+?\\/-')).toBe(false);
    expect(contains('a-b(c)[d]{2}|^$*+?\\/-', seed)).toBe(false);
  });

  it("refuses @Contains(''), which validator.js does not read as any string", () => {
    expect(convert('contains', '')).toEqual({
      schema: { type: 'string' },
      refusal: {
        problem:
          '@Contains(\'\') does not mean "any string": validator.js rejects strings shorter than two characters for it.',
        fix: 'Remove it, or use @MinLength() for a length.',
      },
    });
    expect(contains('a', '')).toBe(false);
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: @IsAlpha() and @IsAlphanumeric()', () => {
  it('spells out both cases for en-US, the default locale', () => {
    expect(convert('isAlpha')).toEqual({ schema: { type: 'string', pattern: '^[A-Za-z]+$' } });
    expect(convert('isAlpha', 'en-US')).toEqual(convert('isAlpha'));
    expect(convert('isAlphanumeric')).toEqual({
      schema: { type: 'string', pattern: '^[0-9A-Za-z]+$' },
    });
    const pattern = patternOf(convert('isAlpha'));
    for (const value of ['Abc', 'abc1', 'ÄBC', '']) {
      expect(pattern.test(value), value).toBe(isAlpha(value));
    }
  });

  it('publishes the pattern of a locale validator.js matches case-sensitively (he)', () => {
    const conversion = convert('isAlpha', 'he');
    expect(conversion.gaps).toBeUndefined();
    expect(patternOf(conversion).test('שלום')).toBe(true);
    expect(patternOf(conversion).test('shalom')).toBe(false);
  });

  it('reports a case-insensitive locale as a gap, without a pattern', () => {
    expect(convert('isAlphanumeric', 'de-DE')).toEqual({
      schema: { type: 'string' },
      gaps: [
        {
          gap: 'locale-pattern',
          detail: "@IsAlphanumeric('de-DE') is case-insensitive; it is enforced at call time only",
        },
      ],
    });
  });

  it('refuses a locale validator.js does not know, suggesting one it does', () => {
    expect(convert('isAlpha', 'de')).toEqual({
      schema: { type: 'string' },
      refusal: {
        problem:
          "@IsAlpha('de') names a locale validator.js does not know, so every call would fail.",
        fix: "Use one of validator.js's locales, such as 'de-DE'.",
      },
    });
    expect(() => isAlpha('abc', 'de' as never)).toThrow(/Invalid locale 'de'/);
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: formats', () => {
  it('lists the email format', () => {
    expect(convert('isEmail')).toEqual({ schema: { type: 'string', format: 'email' } });
  });

  it('lists the uri format only when @IsUrl() requires a scheme', () => {
    expect(convert('isUrl')).toEqual({ schema: { type: 'string' } });
    expect(convert('isUrl', { require_protocol: false })).toEqual({ schema: { type: 'string' } });
    expect(convert('isUrl', { require_protocol: true })).toEqual({
      schema: { type: 'string', format: 'uri' },
    });
  });

  it('narrows the uuid format to the versions asked for, as isUUID does', () => {
    const v4 = '9b2f1b8e-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
    const v7 = '01890a5d-ac96-774b-bcce-b302099a8057';
    const nil = '00000000-0000-0000-0000-000000000000';
    const cases: [unknown, string[]][] = [
      [undefined, [v4, v7, nil]],
      ['4', [v4]],
      [4, [v4]],
      [
        ['4', '7'],
        [v4, v7],
      ],
    ];
    for (const [version, accepted] of cases) {
      const conversion = version === undefined ? convert('isUuid') : convert('isUuid', version);
      expect(conversion.schema).toMatchObject({ type: 'string', format: 'uuid' });
      const pattern = patternOf(conversion);
      for (const value of [v4, v7, nil, `urn:uuid:${v4}`]) {
        expect(pattern.test(value), `${String(version)}: ${value}`).toBe(accepted.includes(value));
      }
    }
    expect(isUUID(v7, '4')).toBe(false);
  });

  it('rejects every value for a uuid version that does not exist, as class-validator does', () => {
    expect(convert('isUuid', '9')).toEqual({ schema: { type: 'string', not: {} } });
  });

  it('gives @IsIP() the pattern of its version, and no value for an unknown one', () => {
    const samples = ['192.168.0.1', '256.1.1.1', '::1', 'fe80::1%eth0', '2001:db8::'];
    for (const version of [undefined, '4', '6', 6] as const) {
      const pattern = patternOf(version === undefined ? convert('isIp') : convert('isIp', version));
      for (const value of samples) {
        expect(pattern.test(value), `${String(version)}: ${value}`).toBe(
          isIP(value, version as never),
        );
      }
    }
    expect(convert('isIp', '5')).toEqual({ schema: { type: 'string', not: {} } });
  });

  it('accepts hex colours of 3, 4, 6 or 8 digits in either case', () => {
    const pattern = patternOf(convert('isHexColor'));
    expect(['#fff', 'FFF', '#a1B2', '#A1b2C3', '#a1b2c3d4'].every((v) => pattern.test(v))).toBe(
      true,
    );
    expect(['#ff', '#fffff', '#ggg'].some((v) => pattern.test(v))).toBe(false);
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: @IsDateString() and @IsISO8601()', () => {
  it('takes the ISO 8601 forms validator.js takes, a space between date and time included', () => {
    const pattern = patternOf(convert('isDateString'));
    for (const value of ['2024-01-31', '2024-W05-3', '20240131T1200', '2024-01-31 12:00']) {
      expect(pattern.test(value), value).toBe(true);
    }
    expect(pattern.test('31/01/2024')).toBe(false);
  });

  it('allows only T between date and time with strictSeparator', () => {
    const pattern = patternOf(convert('isIso8601', { strictSeparator: true }));
    expect(pattern.test('2024-01-31T12:00')).toBe(true);
    expect(pattern.test('2024-01-31 12:00')).toBe(false);
  });

  it('reports that strict mode also rejects impossible dates at call time', () => {
    expect(convert('isDateString', { strict: true }).gaps).toEqual([
      {
        gap: 'date-string-strict',
        detail: '@IsDateString({ strict: true }) also rejects impossible dates at call time',
      },
    ]);
    expect(convert('isIso8601', { strict: true }).gaps?.[0]?.detail).toMatch(/^@IsISO8601\(/);
    expect(convert('isIso8601').gaps).toBeUndefined();
  });
});

describe('STRING_CONSTRAINT_CONVERTERS: decorator names', () => {
  it('name each decorator as users write it, for messages', () => {
    expect(
      Object.fromEntries(
        Object.entries(STRING_CONSTRAINT_CONVERTERS).map(([name, { decorator }]) => [
          name,
          decorator,
        ]),
      ),
    ).toEqual({
      isLength: 'Length',
      minLength: 'MinLength',
      maxLength: 'MaxLength',
      matches: 'Matches',
      contains: 'Contains',
      isAlpha: 'IsAlpha',
      isAlphanumeric: 'IsAlphanumeric',
      isEmail: 'IsEmail',
      isUrl: 'IsUrl',
      isUuid: 'IsUUID',
      isIp: 'IsIP',
      isHexColor: 'IsHexColor',
      isDateString: 'IsDateString',
      isIso8601: 'IsISO8601',
    });
  });
});
