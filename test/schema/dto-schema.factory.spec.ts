import 'reflect-metadata';
import { PartialType } from '@nestjs/swagger';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
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
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { DtoSchemaError } from '../../lib/errors/dto-schema.error.js';
import { DtoSchemaFactory, type SchemaGapNotice } from '../../lib/schema/dto-schema.factory.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { KNOWN_SCHEMA_GAPS } from '../../lib/schema/known-schema-gaps.js';

// Every schema a test builds is compiled here, so an invalid 2020-12 schema fails the test
// that produced it. Union types (mixed enums) are legal JSON Schema; ajv's strict mode
// only wants them acknowledged.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const built: JsonSchema[] = [];

const notices: SchemaGapNotice[] = [];
const factory = new DtoSchemaFactory({ onGap: (notice) => notices.push(notice) });

// The form `schema: { nullableOptionals: true }` lists: @IsOptional() lets null through.
const NULLABLE = { nullableOptionals: true } as const;

function schemaOf(
  dto: Function | undefined,
  options?: { nullableOptionals?: boolean },
): JsonSchema {
  const schema = factory.createInputSchema(dto, options);
  built.push(schema);
  return schema;
}

afterEach(() => {
  for (const schema of built.splice(0)) {
    expect(() => ajv.compile(schema), JSON.stringify(schema)).not.toThrow();
  }
  notices.length = 0;
});

/** The schema of the single property `value` of a DTO, and whether it is required. */
function property(dto: Function): { schema: unknown; required: boolean } {
  const schema = schemaOf(dto);
  return {
    schema: schema.properties?.value,
    required: schema.required?.includes('value') ?? false,
  };
}

function IsEven() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEven',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => typeof value === 'number' && value % 2 === 0,
      },
    });
}

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low = 1,
  High = 2,
}
enum Mixed {
  A = 'a',
  B = 2,
}

describe('DtoSchemaFactory', () => {
  it('describes a tool without a DTO as an object that takes no properties', () => {
    expect(schemaOf(undefined)).toStrictEqual({ type: 'object', additionalProperties: false });
  });

  it('builds a closed object with properties in declaration order and no $schema', () => {
    class CreateProductDto {
      @IsString()
      name!: string;

      @IsOptional()
      @IsString()
      description?: string;

      @IsNumber()
      @Min(0)
      price!: number;
    }

    expect(schemaOf(CreateProductDto, NULLABLE)).toStrictEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        // @IsOptional() lets null through as well as a missing value.
        description: { type: ['string', 'null'] },
        price: { type: 'number', minimum: 0 },
      },
      required: ['name', 'price'],
      additionalProperties: false,
    });
    expect(Object.keys(schemaOf(CreateProductDto).properties ?? {})).toEqual([
      'name',
      'description',
      'price',
    ]);
    expect(notices).toEqual([]);
  });

  it('leaves out `required` when every property is optional', () => {
    class SearchDto {
      @IsOptional()
      @IsString()
      query?: string;
    }

    expect(schemaOf(SearchDto, NULLABLE)).toStrictEqual({
      type: 'object',
      properties: { query: { type: ['string', 'null'] } },
      additionalProperties: false,
    });
    expect(schemaOf(SearchDto)).toStrictEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it('lists an @IsOptional() property with its own type only, and not as required, by default', () => {
    class CreateProductDto {
      @IsString() name!: string;
      @IsOptional() @IsString() @MaxLength(200) description?: string;
      @IsOptional() @IsEnum({ A: 'a', B: 'b' }) grade?: string;
      @IsOptional() @IsUUID('4') id?: string;
    }
    expect(schemaOf(CreateProductDto)).toStrictEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        description: { type: 'string', maxLength: 200 },
        grade: { type: 'string', enum: ['a', 'b'] },
        id: expect.objectContaining({ type: 'string', format: 'uuid' }),
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schemaOf(CreateProductDto))).not.toContain('null');
  });

  describe('one decorator at a time', () => {
    const cases: Array<[string, () => Function, unknown]> = [
      [
        'IsString',
        () => {
          class Dto {
            @IsString() value!: string;
          }
          return Dto;
        },
        { type: 'string' },
      ],
      [
        'IsInt',
        () => {
          class Dto {
            @IsInt() value!: number;
          }
          return Dto;
        },
        { type: 'integer' },
      ],
      [
        'IsNumber with NaN and Infinity allowed (JSON has neither)',
        () => {
          class Dto {
            @IsNumber({ allowNaN: true, allowInfinity: true }) value!: number;
          }
          return Dto;
        },
        { type: 'number' },
      ],
      [
        'IsBoolean',
        () => {
          class Dto {
            @IsBoolean() value!: boolean;
          }
          return Dto;
        },
        { type: 'boolean' },
      ],
      [
        'IsEnum of a string enum',
        () => {
          class Dto {
            @IsEnum(Color) value!: Color;
          }
          return Dto;
        },
        { type: 'string', enum: ['red', 'blue'] },
      ],
      [
        'IsEnum of a numeric enum, without the reverse-mapping names',
        () => {
          class Dto {
            @IsEnum(Level) value!: Level;
          }
          return Dto;
        },
        { type: 'integer', enum: [1, 2] },
      ],
      [
        'IsEnum of a mixed enum',
        () => {
          class Dto {
            @IsEnum(Mixed) value!: Mixed;
          }
          return Dto;
        },
        { type: ['string', 'integer'], enum: ['a', 2] },
      ],
      [
        'IsIn of strings',
        () => {
          class Dto {
            @IsIn(['asc', 'desc']) value!: string;
          }
          return Dto;
        },
        { type: 'string', enum: ['asc', 'desc'] },
      ],
      [
        'IsIn of integers and decimals',
        () => {
          class Dto {
            @IsIn([1, 2.5]) value!: number;
          }
          return Dto;
        },
        { type: 'number', enum: [1, 2.5] },
      ],
      [
        'IsIn of mixed values',
        () => {
          class Dto {
            @IsIn(['any', 0, true]) value!: unknown;
          }
          return Dto;
        },
        { type: ['string', 'integer', 'boolean'], enum: ['any', 0, true] },
      ],
      [
        'IsArray',
        () => {
          class Dto {
            @IsArray() value!: unknown[];
          }
          return Dto;
        },
        { type: 'array' },
      ],
      [
        'Min and Max without a type decorator',
        () => {
          class Dto {
            @Min(-1.5) @Max(10) value!: number;
          }
          return Dto;
        },
        { type: 'number', minimum: -1.5, maximum: 10 },
      ],
      [
        'Length(min, max)',
        () => {
          class Dto {
            @Length(2, 10) value!: string;
          }
          return Dto;
        },
        { type: 'string', minLength: 2, maxLength: 10 },
      ],
      [
        'Length(min)',
        () => {
          class Dto {
            @Length(2) value!: string;
          }
          return Dto;
        },
        { type: 'string', minLength: 2 },
      ],
      [
        'MinLength and MaxLength',
        () => {
          class Dto {
            @IsString() @MinLength(1) @MaxLength(80) value!: string;
          }
          return Dto;
        },
        { type: 'string', minLength: 1, maxLength: 80 },
      ],
      [
        'Matches',
        () => {
          class Dto {
            @Matches(/^[A-Z]{3}-\d+$/) value!: string;
          }
          return Dto;
        },
        { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
      ],
      [
        'Matches given as a string',
        () => {
          class Dto {
            @Matches('^sku_') value!: string;
          }
          return Dto;
        },
        { type: 'string', pattern: '^sku_' },
      ],
      [
        'IsEmail',
        () => {
          class Dto {
            @IsEmail() value!: string;
          }
          return Dto;
        },
        { type: 'string', format: 'email' },
      ],
      [
        // isURL needs no scheme by default ("example.com"), which `format: uri` would refuse.
        'IsUrl',
        () => {
          class Dto {
            @IsUrl() value!: string;
          }
          return Dto;
        },
        { type: 'string' },
      ],
      [
        'IsUrl with require_protocol',
        () => {
          class Dto {
            @IsUrl({ require_protocol: true }) value!: string;
          }
          return Dto;
        },
        { type: 'string', format: 'uri' },
      ],
      [
        'IsUUID of version 4',
        () => {
          class Dto {
            @IsUUID('4') value!: string;
          }
          return Dto;
        },
        {
          type: 'string',
          format: 'uuid',
          pattern:
            '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$',
        },
      ],
    ];

    it.each(cases)('%s', (_name, declare, expected) => {
      expect(property(declare())).toStrictEqual({ schema: expected, required: true });
    });

    it('IsUUID without a version accepts what class-validator accepts: versions 1-8, nil, max', () => {
      class Dto {
        @IsUUID() value!: string;
      }
      const { schema } = property(Dto) as { schema: JsonSchema };
      expect(schema).toMatchObject({ type: 'string', format: 'uuid' });
      const pattern = new RegExp(schema.pattern ?? '', 'u');
      expect(pattern.test('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
      expect(pattern.test('00000000-0000-0000-0000-000000000000')).toBe(true);
      expect(pattern.test('123e4567-e89b-02d3-a456-426614174000')).toBe(false);
      expect(pattern.test('urn:uuid:123e4567-e89b-12d3-a456-426614174000')).toBe(false);
    });

    it('IsDateString accepts every ISO 8601 form class-validator accepts, not only RFC 3339', () => {
      class Dto {
        @IsDateString() value!: string;
      }
      const { schema } = property(Dto) as { schema: JsonSchema };
      expect(Object.keys(schema)).toEqual(['type', 'pattern']);
      const pattern = new RegExp(schema.pattern ?? '', 'u');
      for (const date of ['2024-01-31', '2024-01-31T10:20:30Z', '2024-01-31T10:20:30.5+02:00']) {
        expect(pattern.test(date), date).toBe(true);
      }
      for (const date of ['31/01/2024', '2024-13-01', 'yesterday']) {
        expect(pattern.test(date), date).toBe(false);
      }
    });
  });

  describe('type by strength, not decorator order', () => {
    it('IsInt beats the number implied by Min/Max, whichever comes first', () => {
      class IntFirst {
        @IsInt() @Min(1) @Max(5) value!: number;
      }
      class IntLast {
        @Min(1) @Max(5) @IsInt() value!: number;
      }
      const expected = { type: 'integer', minimum: 1, maximum: 5 };
      expect(property(IntFirst).schema).toStrictEqual(expected);
      expect(property(IntLast).schema).toStrictEqual(expected);
    });

    it('IsInt beats IsNumber', () => {
      class Dto {
        @IsNumber() @IsInt() value!: number;
      }
      expect(property(Dto).schema).toStrictEqual({ type: 'integer' });
    });

    it('keeps the tighter bound when two rules set the same one', () => {
      class Dto {
        @Length(1, 100) @MaxLength(20) @MinLength(3) value!: string;
      }
      expect(property(Dto).schema).toStrictEqual({ type: 'string', minLength: 3, maxLength: 20 });
    });

    it('keeps both patterns of two @Matches() in allOf', () => {
      class Dto {
        @Matches(/^[a-z]/) @Matches(/\d$/) value!: string;
      }
      expect(property(Dto).schema).toStrictEqual({
        type: 'string',
        pattern: '\\d$',
        allOf: [{ type: 'string', pattern: '^[a-z]' }],
      });
    });

    it('refuses rules that no value can pass, naming the class, the property and the fix', () => {
      class ContradictoryDto {
        @IsString() @IsInt() code!: string;
      }
      expect(() => schemaOf(ContradictoryDto)).toThrow(DtoSchemaError);
      expect(() => schemaOf(ContradictoryDto)).toThrow(
        'Cannot build the JSON Schema of ContradictoryDto.code: its rules @IsInt(), @IsString() ' +
          'ask for different JSON types, so no value can pass them all. Remove the rule that ' +
          'does not belong to this property.',
      );
    });
  });

  describe('each: true', () => {
    it('applies the rules to the items of the array', () => {
      class Dto {
        @IsArray()
        @IsInt({ each: true })
        @Min(0, { each: true })
        value!: number[];
      }
      expect(property(Dto).schema).toStrictEqual({
        type: 'array',
        items: { type: 'integer', minimum: 0 },
      });
    });

    it('makes the property an array even without @IsArray()', () => {
      class Dto {
        @IsString({ each: true }) @MaxLength(20, { each: true }) value!: string[];
      }
      expect(property(Dto).schema).toStrictEqual({
        type: 'array',
        items: { type: 'string', maxLength: 20 },
      });
    });
  });

  describe('presence', () => {
    it('lists a property that has only @IsDefined() as required and not null', () => {
      class Dto {
        @IsDefined() value!: unknown;
      }
      expect(property(Dto)).toStrictEqual({ schema: { not: { const: null } }, required: true });
    });

    it('lists a property that has only @Allow() as optional, with no constraint', () => {
      class Dto {
        @Allow() value?: unknown;
      }
      expect(property(Dto)).toStrictEqual({ schema: {}, required: false });
    });

    it('makes a property optional under @ValidateIf() and reports that its rules are conditional', () => {
      class Dto {
        @IsBoolean() gift!: boolean;
        @ValidateIf((dto: Dto) => dto.gift) @IsString() value?: string;
      }
      expect(property(Dto)).toStrictEqual({ schema: { type: 'string' }, required: false });
      expect(notices).toEqual([
        expect.objectContaining({ gap: 'validate-if', propertyName: 'value' }),
      ]);
    });
  });

  describe('validators the schema cannot carry', () => {
    it('drops a pattern with the i flag and reports it as a known gap', () => {
      class SkuDto {
        @Matches(/^sku-\d+$/i) value!: string;
      }
      expect(property(SkuDto).schema).toStrictEqual({ type: 'string' });
      expect(notices).toEqual([
        {
          gap: 'matches-flags',
          dtoName: 'SkuDto',
          propertyName: 'value',
          detail:
            '@Matches(/^sku-\\d+$/i) uses the i flag(s); its pattern is enforced at call time only',
        },
      ]);
      expect(KNOWN_SCHEMA_GAPS.map((gap) => gap.id)).toContain('matches-flags');
    });

    it('drops the modifiers form of @Matches() the same way', () => {
      class Dto {
        @Matches('^abc', 'im') value!: string;
      }
      expect(property(Dto).schema).toStrictEqual({ type: 'string' });
      expect(notices.map((notice) => notice.gap)).toEqual(['matches-flags']);
    });

    it('drops a regex that is not valid in Unicode mode', () => {
      class Dto {
        @Matches(new RegExp('^a\\-b$')) value!: string;
      }
      expect(property(Dto).schema).toStrictEqual({ type: 'string' });
      expect(notices.map((notice) => notice.gap)).toEqual(['matches-syntax']);
    });

    it('reports the rules enforced at call time only: decimal places, strict dates', () => {
      class Dto {
        @IsNumber({ maxDecimalPlaces: 2 }) amount!: number;
        @IsDateString({ strict: true }) on!: string;
      }
      const schema = schemaOf(Dto);
      expect(schema.properties?.amount).toStrictEqual({ type: 'number' });
      expect(schema.properties?.on).toMatchObject({ type: 'string', pattern: expect.any(String) });
      expect(notices.map((notice) => [notice.gap, notice.propertyName])).toEqual([
        ['number-decimal-places', 'amount'],
        ['date-string-strict', 'on'],
      ]);
    });

    it('skips custom validators without failing, and keeps the property', () => {
      @ValidatorConstraint({ name: 'isSku' })
      class IsSkuConstraint implements ValidatorConstraintInterface {
        validate(value: unknown) {
          return typeof value === 'string' && value.startsWith('sku-');
        }
      }
      class Dto {
        @Validate(IsSkuConstraint) sku!: string;
        @IsEven() @Min(0) count!: number;
      }
      expect(schemaOf(Dto)).toStrictEqual({
        type: 'object',
        properties: { sku: {}, count: { type: 'number', minimum: 0 } },
        required: ['sku', 'count'],
        additionalProperties: false,
      });
      expect(notices.map((notice) => [notice.gap, notice.propertyName, notice.detail])).toEqual([
        ['custom-validator', 'sku', 'isSku is enforced at call time only'],
        ['custom-validator', 'count', 'isEven is enforced at call time only'],
      ]);
    });
  });

  describe('nested DTOs', () => {
    class AddressDto {
      @IsString() street!: string;
      @Matches(/^\d{5}$/) zip!: string;
    }
    class OrderLineDto {
      @IsString() sku!: string;
      @IsInt() @Min(1) quantity!: number;
    }
    class OrderDto {
      @IsDefined() @ValidateNested() @Type(() => AddressDto) shipping!: AddressDto;
      @IsOptional() @ValidateNested() @Type(() => AddressDto) billing?: AddressDto;
      @IsArray() @ValidateNested({ each: true }) @Type(() => OrderLineDto) lines!: OrderLineDto[];
    }

    it('puts each class once in $defs and refers to it', () => {
      expect(schemaOf(OrderDto, NULLABLE)).toStrictEqual({
        type: 'object',
        properties: {
          shipping: { $ref: '#/$defs/AddressDto' },
          billing: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/AddressDto' }] },
          lines: { type: 'array', items: { $ref: '#/$defs/OrderLineDto' } },
        },
        required: ['shipping', 'lines'],
        additionalProperties: false,
        $defs: {
          AddressDto: {
            type: 'object',
            properties: {
              street: { type: 'string' },
              zip: { type: 'string', pattern: '^\\d{5}$' },
            },
            required: ['street', 'zip'],
            additionalProperties: false,
          },
          OrderLineDto: {
            type: 'object',
            properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
            required: ['sku', 'quantity'],
            additionalProperties: false,
          },
        },
      });
    });

    it('lists an optional nested DTO as its $ref alone by default', () => {
      const schema = schemaOf(OrderDto);
      expect(schema.properties?.billing).toStrictEqual({ $ref: '#/$defs/AddressDto' });
      expect(schema.required).toEqual(['shipping', 'lines']);
    });

    it('is self-contained: every $ref points into its own $defs', () => {
      const schema = schemaOf(OrderDto);
      const refs = JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? [];
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const key = /#\/\$defs\/([^"]+)/.exec(ref)?.[1];
        expect(key && schema.$defs?.[key], ref).toBeTruthy();
      }
    });

    it('treats a T[] property as an array even when @ValidateNested() has no each', () => {
      class Dto {
        @ValidateNested() @Type(() => OrderLineDto) value!: OrderLineDto[];
      }
      expect(property(Dto).schema).toStrictEqual({
        type: 'array',
        items: { $ref: '#/$defs/OrderLineDto' },
      });
    });

    it('stops at a recursive DTO instead of looping', () => {
      class CategoryDto {
        @IsString() name!: string;
        @IsOptional()
        @ValidateNested({ each: true })
        @Type(() => CategoryDto)
        children?: CategoryDto[];
      }
      class TreeDto {
        @IsDefined() @ValidateNested() @Type(() => CategoryDto) root!: CategoryDto;
      }
      const category = {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: ['array', 'null'], items: { $ref: '#/$defs/CategoryDto' } },
        },
        required: ['name'],
        additionalProperties: false,
      };
      expect(schemaOf(TreeDto, NULLABLE)).toStrictEqual({
        type: 'object',
        properties: { root: { $ref: '#/$defs/CategoryDto' } },
        required: ['root'],
        additionalProperties: false,
        $defs: { CategoryDto: category },
      });
      // The tool's DTO itself may be the recursive class: it is inlined and also defined.
      expect(schemaOf(CategoryDto, NULLABLE)).toStrictEqual({
        ...category,
        $defs: { CategoryDto: category },
      });
      // By default the optional children are listed as an array only, at every depth.
      const plain = {
        ...category,
        properties: {
          ...category.properties,
          children: { type: 'array', items: { $ref: '#/$defs/CategoryDto' } },
        },
      };
      expect(schemaOf(CategoryDto)).toStrictEqual({ ...plain, $defs: { CategoryDto: plain } });
    });

    it('gives two different classes with the same name distinct, stable keys', () => {
      const shop = (() => {
        class Address {
          @IsString() shopStreet!: string;
        }
        return Address;
      })();
      const home = (() => {
        class Address {
          @IsString() homeStreet!: string;
        }
        return Address;
      })();
      class Dto {
        @IsDefined() @ValidateNested() @Type(() => shop) shop!: object;
        @IsDefined() @ValidateNested() @Type(() => home) home!: object;
        @IsDefined() @ValidateNested() @Type(() => shop) shop2!: object;
      }
      const schema = schemaOf(Dto);
      expect(schema.properties).toStrictEqual({
        shop: { $ref: '#/$defs/Address' },
        home: { $ref: '#/$defs/Address_2' },
        shop2: { $ref: '#/$defs/Address' },
      });
      expect(Object.keys(schema.$defs ?? {})).toEqual(['Address', 'Address_2']);
      expect(schema.$defs?.Address_2?.properties).toStrictEqual({ homeStreet: { type: 'string' } });
    });

    it('falls back to design:type when @Type() is missing on a single nested DTO', () => {
      class Dto {
        @IsDefined() @ValidateNested() value!: AddressDto;
      }
      expect(property(Dto).schema).toStrictEqual({ $ref: '#/$defs/AddressDto' });
    });

    it('asks for @Type() when the element class of an array is unknown', () => {
      class InvoiceDto {
        @ValidateNested({ each: true }) lines!: OrderLineDto[];
      }
      expect(() => schemaOf(InvoiceDto)).toThrow(
        new DtoSchemaError(
          'InvoiceDto',
          'lines',
          '@ValidateNested() needs the class of the elements, and TypeScript records only Array for it.',
          'Add @Type(() => ItsDto) from class-transformer (the element class).',
        ),
      );
    });

    it('refuses a nested class that class-validator would reject as an unknown value', () => {
      class PlainAddress {
        street!: string;
      }
      class CustomerDto {
        @ValidateNested() @Type(() => PlainAddress) address!: PlainAddress;
      }
      expect(() => schemaOf(CustomerDto)).toThrow(
        'Cannot build the JSON Schema of CustomerDto.address: PlainAddress has no ' +
          'class-validator decorators',
      );
    });

    it('reports a nested property whose presence class-validator does not check', () => {
      class Dto {
        @ValidateNested() @Type(() => AddressDto) value!: AddressDto;
      }
      expect(property(Dto).required).toBe(true);
      expect(notices.map((notice) => notice.gap)).toEqual(['missing-value']);
    });
  });

  describe('inherited and mapped DTOs', () => {
    class BaseProductDto {
      @IsString() name!: string;
      @IsNumber() @Min(0) price!: number;
    }

    it('includes inherited rules, base properties first', () => {
      class BookDto extends BaseProductDto {
        @IsString() isbn!: string;
      }
      expect(schemaOf(BookDto)).toStrictEqual({
        type: 'object',
        properties: {
          name: { type: 'string' },
          price: { type: 'number', minimum: 0 },
          isbn: { type: 'string' },
        },
        required: ['name', 'price', 'isbn'],
        additionalProperties: false,
      });
    });

    it('reads the rules PartialType() copies onto its class', () => {
      class UpdateProductDto extends PartialType(BaseProductDto) {}
      expect(schemaOf(UpdateProductDto, NULLABLE)).toStrictEqual({
        type: 'object',
        properties: {
          name: { type: ['string', 'null'] },
          price: { type: ['number', 'null'], minimum: 0 },
        },
        additionalProperties: false,
      });
      expect(schemaOf(UpdateProductDto).properties).toStrictEqual({
        name: { type: 'string' },
        price: { type: 'number', minimum: 0 },
      });
    });
  });

  it('builds every schema anew, so a later class cannot leak into an earlier schema', () => {
    class ADto {
      @IsString() a!: string;
    }
    const first = factory.createInputSchema(ADto);
    const second = factory.createInputSchema(ADto);
    expect(first).toStrictEqual(second);
    expect(first).not.toBe(second);
    first.properties!.a!.type = 'integer';
    expect(second.properties?.a).toStrictEqual({ type: 'string' });
  });
});
