import 'reflect-metadata';
import { ApiProperty } from '@nestjs/swagger';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Exclude, Type } from 'class-transformer';
import {
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
  IsDefined,
  IsDivisibleBy,
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
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { DtoSchemaError } from '../../lib/errors/dto-schema.error.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { DtoSchemaFactory, type SchemaGapNotice } from '../../lib/schema/dto-schema.factory.js';
import { allowNull } from '../../lib/schema/schema-keywords.merger.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';

// Every schema built here must also compile in a strict, independent 2020-12 validator.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const built: JsonSchema[] = [];
const notices: SchemaGapNotice[] = [];
const factory = new DtoSchemaFactory({ onGap: (notice) => notices.push(notice) });

const input = (dto: Function, options?: Parameters<DtoSchemaFactory['createInputSchema']>[1]) => {
  const schema = factory.createInputSchema(dto, options);
  built.push(schema);
  return schema;
};
const output = (declared: Parameters<DtoSchemaFactory['createOutputSchema']>[0]) => {
  const schema = factory.createOutputSchema(declared);
  built.push(schema);
  return schema;
};
const valueOf = (dto: Function) => input(dto).properties?.value;

afterEach(() => {
  for (const schema of built.splice(0)) {
    expect(() => ajv.compile(schema), JSON.stringify(schema)).not.toThrow();
  }
  notices.length = 0;
});

enum Level {
  Low = 1,
  High = 2,
}

describe('DtoSchemaFactory: every mapped decorator', () => {
  class NotInDto {
    @IsNotIn(['admin', 'root']) value!: string;
  }
  class ObjectDto {
    @IsObject() value!: object;
  }
  class DateDto {
    @IsDate() @Type(() => Date) value!: Date;
  }
  class IsoDto {
    @IsISO8601() value!: string;
  }
  class NotEmptyStringDto {
    @IsString() @IsNotEmpty() value!: string;
  }
  class NotEmptyAnyDto {
    @IsNotEmpty() value!: unknown;
  }
  class NotEmptyNumberDto {
    @IsInt() @IsNotEmpty() value!: number;
  }
  class EqualsDto {
    @Equals('yes') value!: string;
  }
  class PositiveDto {
    @IsPositive() value!: number;
  }
  class NegativeDto {
    @IsNegative() @IsInt() value!: number;
  }
  class DivisibleDto {
    @IsDivisibleBy(5) value!: number;
  }
  class ContainsDto {
    @Contains('a.b/c') value!: string;
  }
  class AlphaDto {
    @IsAlpha() value!: string;
  }
  class AlphanumericDto {
    @IsAlphanumeric() value!: string;
  }
  class Ip4Dto {
    @IsIP('4') value!: string;
  }
  class HexColorDto {
    @IsHexColor() value!: string;
  }
  class ArraySizeDto {
    @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique() value!: string[];
  }
  class ArrayNotEmptyDto {
    @IsArray() @ArrayNotEmpty() @ArrayMinSize(0) value!: string[];
  }

  it.each([
    ['IsNotIn', NotInDto, { not: { enum: ['admin', 'root'] } }],
    ['IsObject', ObjectDto, { type: 'object' }],
    [
      'IsDate with @Type(() => Date), as an RFC 3339 date-time whose seconds stop at 59',
      DateDto,
      {
        type: 'string',
        format: 'date-time',
        pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt\\s]\\d{2}:\\d{2}:[0-5]\\d',
      },
    ],
    ['IsNotEmpty on a string, as minLength', NotEmptyStringDto, { type: 'string', minLength: 1 }],
    ['IsNotEmpty alone', NotEmptyAnyDto, { not: { enum: ['', null] } }],
    ['IsNotEmpty where the type rules out both', NotEmptyNumberDto, { type: 'integer' }],
    ['Equals', EqualsDto, { type: 'string', const: 'yes' }],
    ['IsPositive', PositiveDto, { type: 'number', exclusiveMinimum: 0 }],
    ['IsNegative with IsInt', NegativeDto, { type: 'integer', exclusiveMaximum: 0 }],
    ['IsDivisibleBy', DivisibleDto, { type: 'number', multipleOf: 5 }],
    ['Contains, escaped as a literal', ContainsDto, { type: 'string', pattern: 'a\\.b\\/c' }],
    ['IsAlpha', AlphaDto, { type: 'string', pattern: '^[A-Za-z]+$' }],
    ['IsAlphanumeric', AlphanumericDto, { type: 'string', pattern: '^[0-9A-Za-z]+$' }],
    ['IsHexColor', HexColorDto, { type: 'string', pattern: expect.stringContaining('#?') }],
    [
      'ArrayMinSize, ArrayMaxSize, ArrayUnique',
      ArraySizeDto,
      { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true },
    ],
    ['ArrayNotEmpty beats ArrayMinSize(0)', ArrayNotEmptyDto, { type: 'array', minItems: 1 }],
  ] as Array<[string, Function, unknown]>)('%s', (_name, dto, expected) => {
    expect(valueOf(dto)).toStrictEqual(expected);
  });

  it('IsISO8601 uses the same ISO 8601 pattern as IsDateString', () => {
    const { pattern } = valueOf(IsoDto) as { pattern: string };
    expect(new RegExp(pattern, 'u').test('2024-W05-3')).toBe(true);
    expect(new RegExp(pattern, 'u').test('2024-13-01')).toBe(false);
  });

  it('IsIP without a version takes v4 or v6, zone ids included, as validator.js does', () => {
    class Dto {
      @IsIP() value!: string;
    }
    const pattern = new RegExp((valueOf(Dto) as { pattern: string }).pattern, 'u');
    for (const ip of ['192.168.0.1', '::1', 'fe80::1%eth0'])
      expect(pattern.test(ip), ip).toBe(true);
    for (const ip of ['256.0.0.1', '01.2.3.4', '1:2:3']) expect(pattern.test(ip), ip).toBe(false);
    const v4 = new RegExp((valueOf(Ip4Dto) as { pattern: string }).pattern, 'u');
    expect(v4.test('::1')).toBe(false);
  });

  it('drops values of IsIn that class-validator can never match (objects, NaN)', () => {
    class Dto {
      @IsIn(['a', { b: 1 }, Number.NaN, 2]) value!: unknown;
    }
    expect(valueOf(Dto)).toStrictEqual({ type: ['string', 'integer'], enum: ['a', 2] });
  });

  it('applies IsNotIn to an enum by removing the excluded values', () => {
    class Dto {
      @IsEnum(Level) @IsNotIn([2]) value!: Level;
    }
    expect(valueOf(Dto)).toStrictEqual({ type: 'integer', enum: [1] });
  });

  it('refuses @IsDate() without @Type(() => Date), which no JSON value could pass', () => {
    class EventDto {
      @IsDate() at!: Date;
    }
    expect(() => input(EventDto)).toThrow(
      new DtoSchemaError(
        'EventDto',
        'at',
        '@IsDate() accepts only Date instances, and a JSON argument is at most a date string.',
        'Add @Type(() => Date) from class-transformer, so the string becomes a Date first.',
      ),
    );
  });

  it("refuses @Contains(''), which rejects short strings instead of allowing all", () => {
    class Dto {
      @Contains('') note!: string;
    }
    expect(() => input(Dto)).toThrow(/Dto\.note: @Contains\(''\) does not mean "any string"/);
  });

  it('refuses a locale validator.js does not know, and reports a case-insensitive one', () => {
    class UnknownLocaleDto {
      @IsAlpha('xx-XX' as never) name!: string;
    }
    expect(() => input(UnknownLocaleDto)).toThrow(/names a locale validator\.js does not know/);
    class GermanDto {
      @IsAlpha('de-DE') value!: string;
    }
    expect(valueOf(GermanDto)).toStrictEqual({ type: 'string' });
    expect(notices.map((notice) => notice.gap)).toEqual(['locale-pattern']);
  });

  it('reports the missing-value gap for a rule that a missing value passes', () => {
    class Dto {
      @IsNotIn(['x']) value!: string;
    }
    expect(input(Dto).required).toEqual(['value']);
    expect(notices.map((notice) => notice.gap)).toEqual(['missing-value']);
  });
});

describe('DtoSchemaFactory: null under @IsOptional()', () => {
  class AddressDto {
    @IsString() street!: string;
  }

  it.each([
    ['a type', { type: 'integer', minimum: 0 }, { type: ['integer', 'null'], minimum: 0 }],
    [
      'an enum',
      { type: 'integer', enum: [1, 2] },
      { type: ['integer', 'null'], enum: [1, 2, null] },
    ],
    ['a const', { type: 'string', const: 'on' }, { type: ['string', 'null'], enum: ['on', null] }],
    ['excluded values', { not: { enum: ['', null] } }, { not: { const: '' } }],
    ['a $ref', { $ref: '#/$defs/A' }, { anyOf: [{ type: 'null' }, { $ref: '#/$defs/A' }] }],
    ['nothing', {}, {}],
    [
      'an allOf of patterns',
      { type: 'string', pattern: 'a', allOf: [{ type: 'string', pattern: 'b' }] },
      {
        type: ['string', 'null'],
        pattern: 'a',
        allOf: [{ type: ['string', 'null'], pattern: 'b' }],
      },
    ],
    ['an impossible rule', { not: {} }, { anyOf: [{ type: 'null' }, { not: {} }] }],
  ] as Array<[string, JsonSchema, JsonSchema]>)(
    'allows null next to %s',
    (_what, schema, expected) => {
      expect(allowNull(schema)).toStrictEqual(expected);
    },
  );

  it('allows null for optional properties, nested DTOs included, with nullableOptionals', () => {
    class Dto {
      @IsOptional() @IsString() a?: string;
      @IsOptional() @ValidateNested() @Type(() => AddressDto) b?: AddressDto;
    }
    expect(input(Dto, { nullableOptionals: true }).properties).toStrictEqual({
      a: { type: ['string', 'null'] },
      b: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/AddressDto' }] },
    });
  });

  it('lists optional properties without null by default, nested DTOs included', () => {
    class Dto {
      @IsOptional() @IsString() a?: string;
      @IsOptional() @ValidateNested() @Type(() => AddressDto) b?: AddressDto;
      @IsOptional() @IsIn(['x', 'y']) c?: string;
      @IsOptional() @IsNotEmpty() d?: unknown;
    }
    const schema = input(Dto);
    expect(schema.properties).toStrictEqual({
      a: { type: 'string' },
      b: { $ref: '#/$defs/AddressDto' },
      c: { type: 'string', enum: ['x', 'y'] },
      // @IsNotEmpty() excludes '' and null; without nullableOptionals, null stays excluded.
      d: { not: { enum: ['', null] } },
    });
    expect(schema.required).toBeUndefined();
  });

  it('publishes no null default for an optional property listed without null', () => {
    class Dto {
      @IsOptional() @IsString() note: string | null = null;
    }
    expect(input(Dto).properties?.note).toStrictEqual({ type: 'string' });
    expect(input(Dto, { nullableOptionals: true }).properties?.note).toStrictEqual({
      type: ['string', 'null'],
      default: null,
    });
    expect(input(Dto).required).toBeUndefined();
  });

  it('keeps @ValidateIf() properties optional but not nullable', () => {
    class Dto {
      @IsBoolean() gift!: boolean;
      @ValidateIf((dto: Dto) => dto.gift) @IsString() note?: string;
    }
    const schema = input(Dto);
    expect(schema.properties?.note).toStrictEqual({ type: 'string' });
    expect(schema.required).toEqual(['gift']);
  });
});

describe('DtoSchemaFactory: discriminated subtypes', () => {
  class ShapeDto {
    @IsString() label!: string;
  }
  class CircleDto extends ShapeDto {
    @IsNumber() @Min(0) radius!: number;
  }
  class SquareDto extends ShapeDto {
    @IsNumber() @Min(0) side!: number;
  }
  const subTypes = [
    { name: 'circle', value: CircleDto },
    { name: 'square', value: SquareDto },
  ];

  it('lists each subtype in oneOf, with the discriminator fixed to its name', () => {
    class DrawingDto {
      @IsArray()
      @ValidateNested({ each: true })
      @Type(() => ShapeDto, { discriminator: { property: 'kind', subTypes } })
      shapes!: ShapeDto[];
    }
    const schema = input(DrawingDto);
    expect(schema.properties?.shapes).toStrictEqual({
      type: 'array',
      items: { oneOf: [{ $ref: '#/$defs/CircleDto' }, { $ref: '#/$defs/SquareDto' }] },
    });
    expect(schema.$defs?.CircleDto).toStrictEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', const: 'circle' },
        label: { type: 'string' },
        radius: { type: 'number', minimum: 0 },
      },
      required: ['kind', 'label', 'radius'],
      additionalProperties: false,
    });
    expect(notices).toEqual([]);
  });

  it('refuses keepDiscriminatorProperty when the subtype does not declare the property', () => {
    class DrawingDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => ShapeDto, {
        discriminator: { property: 'kind', subTypes },
        keepDiscriminatorProperty: true,
      })
      shape!: ShapeDto;
    }
    expect(() => input(DrawingDto)).toThrow(
      /CircleDto\.kind: the @Type\(\) discriminator keeps this property on the instance/,
    );
  });
});

describe('DtoSchemaFactory: defaults', () => {
  it('publishes a property initializer as default and no longer requires the property', () => {
    class SearchDto {
      @IsOptional() @IsInt() @Min(1) @Max(100) limit = 10;
      @IsBoolean() exact = false;
      @IsString() query!: string;
    }
    const schema = input(SearchDto, { nullableOptionals: true });
    expect(schema.properties).toStrictEqual({
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 100, default: 10 },
      exact: { type: 'boolean', default: false },
      query: { type: 'string' },
    });
    expect(schema.required).toEqual(['query']);
    expect(input(SearchDto).properties?.limit).toStrictEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 10,
    });
  });

  it('leaves out a default that differs per instance, and still makes it optional', () => {
    let next = 0;
    class TicketDto {
      @IsInt() number = ++next;
    }
    const schema = input(TicketDto);
    expect(schema.properties?.number).toStrictEqual({ type: 'integer' });
    expect(schema.required).toBeUndefined();
  });

  it('publishes a Date default as the JSON string it becomes', () => {
    class SinceDto {
      @IsDate() @Type(() => Date) since = new Date('2024-01-01T00:00:00Z');
    }
    expect(input(SinceDto).properties?.since?.default).toBe('2024-01-01T00:00:00.000Z');
  });

  it('refuses a default that breaks its own rules', () => {
    class PageDto {
      @IsInt() @Min(1) page = 0;
    }
    expect(() => input(PageDto)).toThrow(
      'Cannot build the JSON Schema of PageDto.page: its default breaks its own rules ' +
        '(page must not be less than 1), so every call without it would fail. ' +
        'Change the initializer, or the rules.',
    );
  });

  it('refuses an initialized property without a rule, which the whitelist rejects on every call', () => {
    class FilterDto {
      @IsString() query!: string;
      internal = 'x';
    }
    expect(() => input(FilterDto)).toThrow(
      /FilterDto\.internal: it has an initializer but no class-validator decorator/,
    );
  });
});

describe('DtoSchemaFactory: descriptions, examples, deprecation', () => {
  class ProductQueryDto {
    @ApiProperty({ description: 'Words to look for', example: 'lamp' })
    @IsString()
    query!: string;

    @ApiProperty({ description: 'Old name of query', deprecated: true })
    @IsOptional()
    @IsString()
    q?: string;

    @IsOptional() @IsInt() limit?: number;
  }

  it('reads them from @ApiProperty()', () => {
    expect(input(ProductQueryDto, { nullableOptionals: true }).properties).toStrictEqual({
      query: { description: 'Words to look for', type: 'string', examples: ['lamp'] },
      q: { description: 'Old name of query', type: ['string', 'null'], deprecated: true },
      limit: { type: ['integer', 'null'] },
    });
  });

  it('takes the `arguments` option of the tool over @ApiProperty(), field by field', () => {
    const schema = input(ProductQueryDto, {
      arguments: {
        query: { description: 'Search text' },
        limit: { description: 'At most this many', examples: [5] },
      },
      nullableOptionals: true,
    });
    expect(schema.properties?.query).toStrictEqual({
      description: 'Search text',
      type: 'string',
      examples: ['lamp'],
    });
    expect(schema.properties?.limit).toStrictEqual({
      description: 'At most this many',
      type: ['integer', 'null'],
      examples: [5],
    });
    expect(input(ProductQueryDto, { arguments: { q: 'Short' } }).properties?.q?.description).toBe(
      'Short',
    );
  });

  it('refuses an `arguments` key that names no property', () => {
    expect(() => input(ProductQueryDto, { arguments: { qeury: 'typo' } })).toThrow(
      new McpConfigurationError(
        'The "arguments" option names "qeury", which is not a property of ProductQueryDto. ' +
          'Its properties: query, q, limit.',
      ),
    );
  });

  it('describes a nested DTO reference without losing the $ref', () => {
    class AddressDto {
      @IsString() street!: string;
    }
    class OrderDto {
      @ApiProperty({ description: 'Where to ship' })
      @IsDefined()
      @ValidateNested()
      @Type(() => AddressDto)
      shipping!: AddressDto;
    }
    expect(input(OrderDto).properties?.shipping).toStrictEqual({
      description: 'Where to ship',
      $ref: '#/$defs/AddressDto',
    });
  });
});

describe('DtoSchemaFactory: output schemas', () => {
  class TagDto {
    @IsString() name!: string;
  }
  class ProductDto {
    @IsString() id!: string;
    @IsNumber() @Min(0) price!: number;
    @IsOptional() @IsDate() createdAt?: Date;
    @IsArray() @ValidateNested({ each: true }) @Type(() => TagDto) tags!: TagDto[];
    @Exclude() @IsString() costPrice!: string;
    @IsInt() stock = 0;
  }

  it('lists a DTO at an object root, @Exclude()d properties left out, no defaults', () => {
    expect(output(ProductDto)).toStrictEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        price: { type: 'number', minimum: 0 },
        createdAt: {
          type: ['string', 'null'],
          format: 'date-time',
          pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt\\s]\\d{2}:\\d{2}:[0-5]\\d',
        },
        tags: { type: 'array', items: { $ref: '#/$defs/TagDto' } },
        stock: { type: 'integer' },
      },
      required: ['id', 'price', 'tags', 'stock'],
      additionalProperties: false,
      $defs: {
        TagDto: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
  });

  it('lists [Dto] at an array root, with the DTO in $defs', () => {
    const schema = output([TagDto]);
    expect(schema).toMatchObject({ type: 'array', items: { $ref: '#/$defs/TagDto' } });
    expect(Object.keys(schema.$defs ?? {})).toEqual(['TagDto']);
  });

  it.each([
    [String, { type: 'string' }],
    [Number, { type: 'number' }],
    [Boolean, { type: 'boolean' }],
    [Date, { type: 'string', format: 'date-time' }],
    [[String], { type: 'array', items: { type: 'string' } }],
  ] as const)('lists the scalar output %o', (declared, expected) => {
    expect(output(declared as never)).toStrictEqual(expected);
  });

  it('refuses an output class without class-validator decorators', () => {
    class PlainDto {
      id!: string;
    }
    expect(() => output(PlainDto)).toThrow(McpConfigurationError);
    expect(() => output(PlainDto)).toThrow(/PlainDto has no class-validator decorators/);
    expect(() => output([TagDto, TagDto] as never)).toThrow(/a list of one class/);
  });
});
