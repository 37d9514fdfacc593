import 'reflect-metadata';
import { PartialType } from '@nestjs/swagger';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { plainToInstance, Type } from 'class-transformer';
import {
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
  validate,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { compileJsonSchema, type JsonSchemaCheck } from '../../lib/schema/json-schema.check.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { KNOWN_SCHEMA_GAPS, type KnownSchemaGapId } from '../../lib/schema/known-schema-gaps.js';

/*
 * The schema a client sees and the validator a call meets must say the same. Each row is
 * checked against both ajv (the generated schema, formats asserted) and the server's
 * DtoArgumentsValidator. Rows where class-validator alone, or the schema alone, would
 * decide otherwise name their KNOWN_SCHEMA_GAPS entry and are asserted to disagree in the
 * documented direction, so a gap that closes (or a new disagreement) fails here. The
 * property-based counterpart is schema-agreement.property.spec.ts.
 */

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low = 1,
  High = 2,
}

class ProductDto {
  @IsString() @Length(1, 20) name!: string;
  @IsNumber() @Min(0) price!: number;
  @Min(0) @Max(1000) @IsInt() quantity!: number;
  @IsOptional() @Matches(/^[A-Z]{3}-\d{4}$/) sku?: string;
  @IsOptional() @IsEnum(Color) color?: Color;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsArray() @IsString({ each: true }) @MaxLength(5, { each: true }) tags?: string[];
  @IsOptional() @IsString({ each: true }) labels?: string[];
  @IsOptional() @IsBoolean() active?: boolean;
  @IsOptional() @IsIn(['asc', 'desc']) sort?: string;
}

class ContactDto {
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsUrl() website?: string;
  @IsOptional() @IsUrl({ require_protocol: true }) homepage?: string;
  @IsOptional() @IsUUID() id?: string;
  @IsOptional() @IsUUID('4') v4?: string;
  @IsOptional() @IsDateString() born?: string;
  @IsOptional() @IsDateString({ strict: true }) strictBorn?: string;
  @IsOptional() @Matches(/^abc$/i) code?: string;
}

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
  @IsArray() @ValidateNested({ each: true }) @Type(() => OrderLineDto) lines!: OrderLineDto[];
  @IsOptional() @IsString() note?: string;
}

class CategoryDto {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => CategoryDto) children?: CategoryDto[];
}

/** No @Type(): the schema and the validator both fall back to design:type. */
class PickupDto {
  @IsDefined() @ValidateNested() address!: AddressDto;
}

/** @ValidateNested() alone: class-validator does not check that the value is there. */
class LooseOrderDto {
  @ValidateNested() @Type(() => AddressDto) shipping!: AddressDto;
}

class PingDto {}

class UpdateProductDto extends PartialType(ProductDto) {}

const product = { name: 'Lamp', price: 12.5, quantity: 3 };
const address = { street: '1 Main St', zip: '12345' };
const order = { shipping: address, lines: [{ sku: 'A-1', quantity: 1 }] };

type Verdict = 'accept' | 'reject';
interface Row {
  readonly dto: Function;
  readonly args: unknown;
  readonly expected: Verdict;
  /** Rows where the schema or class-validator alone decides otherwise: the gap. */
  readonly gap?: KnownSchemaGapId;
}

const rows: Record<string, Row> = {
  'product: valid': { dto: ProductDto, args: product, expected: 'accept' },
  'product: every optional property set': {
    dto: ProductDto,
    args: {
      ...product,
      sku: 'LMP-0001',
      color: 'red',
      level: 2,
      tags: ['home'],
      labels: ['a', 'b'],
      active: true,
      sort: 'asc',
    },
    expected: 'accept',
  },
  'product: missing required property': {
    dto: ProductDto,
    args: { price: 1, quantity: 1 },
    expected: 'reject',
  },
  'product: unknown property': {
    dto: ProductDto,
    args: { ...product, colour: 'red' },
    expected: 'reject',
  },
  'product: string for a number': {
    dto: ProductDto,
    args: { ...product, price: '12' },
    expected: 'reject',
  },
  'product: decimal for an integer': {
    dto: ProductDto,
    args: { ...product, quantity: 1.5 },
    expected: 'reject',
  },
  'product: below the minimum': {
    dto: ProductDto,
    args: { ...product, price: -0.01 },
    expected: 'reject',
  },
  'product: above the maximum': {
    dto: ProductDto,
    args: { ...product, quantity: 1001 },
    expected: 'reject',
  },
  'product: on the maximum': {
    dto: ProductDto,
    args: { ...product, quantity: 1000 },
    expected: 'accept',
  },
  'product: too short': { dto: ProductDto, args: { ...product, name: '' }, expected: 'reject' },
  'product: too long': {
    dto: ProductDto,
    args: { ...product, name: 'x'.repeat(21) },
    expected: 'reject',
  },
  'product: astral characters count once': {
    dto: ProductDto,
    args: { ...product, name: '🦊'.repeat(20) },
    expected: 'accept',
  },
  'product: wrong pattern': {
    dto: ProductDto,
    args: { ...product, sku: 'lmp-1' },
    expected: 'reject',
  },
  'product: pattern searched, not anchored by the schema': {
    dto: ProductDto,
    args: { ...product, sku: 'LMP-12345' },
    expected: 'reject',
  },
  'product: not in the string enum': {
    dto: ProductDto,
    args: { ...product, color: 'green' },
    expected: 'reject',
  },
  'product: not in the numeric enum': {
    dto: ProductDto,
    args: { ...product, level: 3 },
    expected: 'reject',
  },
  'product: not in the IsIn list': {
    dto: ProductDto,
    args: { ...product, sort: 'up' },
    expected: 'reject',
  },
  'product: boolean as a string': {
    dto: ProductDto,
    args: { ...product, active: 'true' },
    expected: 'reject',
  },
  'product: array item of the wrong type': {
    dto: ProductDto,
    args: { ...product, tags: ['ok', 1] },
    expected: 'reject',
  },
  'product: array item too long': {
    dto: ProductDto,
    args: { ...product, tags: ['toolong'] },
    expected: 'reject',
  },
  'product: not an array': {
    dto: ProductDto,
    args: { ...product, tags: 'home' },
    expected: 'reject',
  },
  'arguments: an array': { dto: ProductDto, args: [product], expected: 'reject' },
  'arguments: a string': { dto: ProductDto, args: 'name=Lamp', expected: 'reject' },
  'arguments: null': { dto: ProductDto, args: null, expected: 'reject' },

  'keys: constructor': {
    dto: ProductDto,
    args: { ...product, constructor: 'x' },
    expected: 'reject',
  },
  'keys: hasOwnProperty': {
    dto: ProductDto,
    args: { ...product, hasOwnProperty: 1 },
    expected: 'reject',
  },
  'keys: toString in a nested object': {
    dto: OrderDto,
    args: { ...order, shipping: { ...address, toString: 'x' } },
    expected: 'reject',
  },

  'contact: valid email': {
    dto: ContactDto,
    args: { email: 'ada@example.com' },
    expected: 'accept',
  },
  'contact: email without domain': { dto: ContactDto, args: { email: 'ada@' }, expected: 'reject' },
  'contact: email with spaces': {
    dto: ContactDto,
    args: { email: 'ada at example.com' },
    expected: 'reject',
  },
  'contact: email without a top-level domain': {
    dto: ContactDto,
    args: { email: 'ada@localhost' },
    expected: 'reject',
  },
  'contact: valid url': {
    dto: ContactDto,
    args: { website: 'https://example.com/docs?q=1#top' },
    expected: 'accept',
  },
  'contact: url without a scheme, which isURL accepts': {
    dto: ContactDto,
    args: { website: 'example.com' },
    expected: 'accept',
  },
  'contact: url with a required scheme': {
    dto: ContactDto,
    args: { homepage: 'https://example.com/docs' },
    expected: 'accept',
  },
  'contact: url without a required scheme': {
    dto: ContactDto,
    args: { homepage: 'example.com' },
    expected: 'reject',
  },
  'contact: not a url, where a scheme is required': {
    dto: ContactDto,
    args: { homepage: 'not a url' },
    expected: 'reject',
  },
  'contact: valid uuid': {
    dto: ContactDto,
    args: {
      id: '123e4567-e89b-12d3-a456-426614174000',
      v4: 'b3f1c3a2-6f1e-4c1a-9a7b-2d1e0f9c8b7a',
    },
    expected: 'accept',
  },
  'contact: uuid in capitals': {
    dto: ContactDto,
    args: { id: '123E4567-E89B-12D3-A456-426614174000' },
    expected: 'accept',
  },
  'contact: not a uuid': { dto: ContactDto, args: { id: 'not-a-uuid' }, expected: 'reject' },
  'contact: uuid with an invalid version': {
    dto: ContactDto,
    args: { id: '123e4567-e89b-02d3-a456-426614174000' },
    expected: 'reject',
  },
  'contact: uuid as a URN': {
    dto: ContactDto,
    args: { id: 'urn:uuid:123e4567-e89b-12d3-a456-426614174000' },
    expected: 'reject',
  },
  'contact: uuid of another version than asked': {
    dto: ContactDto,
    args: { v4: '123e4567-e89b-12d3-a456-426614174000' },
    expected: 'reject',
  },
  'contact: date-time': {
    dto: ContactDto,
    args: { born: '2024-01-31T10:20:30Z' },
    expected: 'accept',
  },
  'contact: date-time with offset and fraction': {
    dto: ContactDto,
    args: { born: '2024-01-31T10:20:30.123+02:00' },
    expected: 'accept',
  },
  'contact: date without time': {
    dto: ContactDto,
    args: { born: '2024-01-31' },
    expected: 'accept',
  },
  'contact: ISO week date': { dto: ContactDto, args: { born: '2024-W05-3' }, expected: 'accept' },
  'contact: basic format': { dto: ContactDto, args: { born: '20240131T1020' }, expected: 'accept' },
  'contact: month 13': { dto: ContactDto, args: { born: '2024-13-01' }, expected: 'reject' },
  'contact: not a date': { dto: ContactDto, args: { born: 'yesterday' }, expected: 'reject' },
  'contact: local date format': {
    dto: ContactDto,
    args: { born: '31/01/2024' },
    expected: 'reject',
  },
  'contact: date as a number': { dto: ContactDto, args: { born: 20240131 }, expected: 'reject' },
  'contact: case-insensitive pattern, matching': {
    dto: ContactDto,
    args: { code: 'ABC' },
    expected: 'accept',
  },

  'order: valid': { dto: OrderDto, args: order, expected: 'accept' },
  'order: no lines': { dto: OrderDto, args: { ...order, lines: [] }, expected: 'accept' },
  'order: missing nested object': { dto: OrderDto, args: { lines: [] }, expected: 'reject' },
  'order: nested object is a string': {
    dto: OrderDto,
    args: { ...order, shipping: '1 Main St' },
    expected: 'reject',
  },
  'order: nested object is null': {
    dto: OrderDto,
    args: { ...order, shipping: null },
    expected: 'reject',
  },
  'order: nested property missing': {
    dto: OrderDto,
    args: { ...order, shipping: { street: '1 Main St' } },
    expected: 'reject',
  },
  'order: nested property wrong': {
    dto: OrderDto,
    args: { ...order, shipping: { ...address, zip: '1234' } },
    expected: 'reject',
  },
  'order: nested unknown property': {
    dto: OrderDto,
    args: { ...order, shipping: { ...address, country: 'NL' } },
    expected: 'reject',
  },
  'order: array item breaks a rule': {
    dto: OrderDto,
    args: {
      ...order,
      lines: [
        { sku: 'A', quantity: 1 },
        { sku: 'B', quantity: 0 },
      ],
    },
    expected: 'reject',
  },
  'order: array item has an unknown property': {
    dto: OrderDto,
    args: { ...order, lines: [{ sku: 'A', quantity: 1, discount: 5 }] },
    expected: 'reject',
  },
  'order: array item is not an object': {
    dto: OrderDto,
    args: { ...order, lines: [1] },
    expected: 'reject',
  },
  'order: array is an object': {
    dto: OrderDto,
    args: { ...order, lines: { sku: 'A', quantity: 1 } },
    expected: 'reject',
  },

  'tree: three levels': {
    dto: CategoryDto,
    args: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] },
    expected: 'accept',
  },
  'tree: error three levels down': {
    dto: CategoryDto,
    args: { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] },
    expected: 'reject',
  },
  'tree: unknown property three levels down': {
    dto: CategoryDto,
    args: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', slug: 'c' }] }] },
    expected: 'reject',
  },

  'design:type fallback: valid': { dto: PickupDto, args: { address }, expected: 'accept' },
  'design:type fallback: nested error': {
    dto: PickupDto,
    args: { address: { ...address, zip: 'x' } },
    expected: 'reject',
  },

  'no properties: empty': { dto: PingDto, args: {}, expected: 'accept' },
  'no properties: arguments left out': { dto: PingDto, args: undefined, expected: 'accept' },
  'no properties: a property': { dto: PingDto, args: { force: true }, expected: 'reject' },

  'PartialType: nothing required': { dto: UpdateProductDto, args: {}, expected: 'accept' },
  'PartialType: rules still apply': {
    dto: UpdateProductDto,
    args: { price: -1 },
    expected: 'reject',
  },
  'PartialType: unknown property': {
    dto: UpdateProductDto,
    args: { colour: 'red' },
    expected: 'reject',
  },

  'null for an optional property': {
    dto: ProductDto,
    args: { ...product, color: null, level: null, tags: null, sort: null },
    expected: 'accept',
  },

  // Rows where the schema and class-validator alone disagree; `expected` is the server's
  // verdict, which is never more than either accepts.
  'gap: name of a numeric enum member': {
    dto: ProductDto,
    args: { ...product, level: 'Low' },
    expected: 'reject',
    gap: 'numeric-enum-reverse-mapping',
  },
  'gap: presentation selector in a length': {
    dto: ProductDto,
    args: { ...product, name: `${'x'.repeat(19)}\u2764\uFE0F` },
    expected: 'reject',
    gap: 'length-presentation-selectors',
  },
  'gap: each rule given one value': {
    dto: ProductDto,
    args: { ...product, labels: 'solo' },
    expected: 'reject',
    gap: 'each-single-value',
  },
  'gap: email with a non-ASCII local part': {
    dto: ContactDto,
    args: { email: 'josé@example.com' },
    expected: 'reject',
    gap: 'email-format',
  },
  'gap: email with a numeric top-level domain': {
    dto: ContactDto,
    args: { email: 'ada@example.123' },
    expected: 'reject',
    gap: 'email-format',
  },
  'gap: not a url, which only isURL checks': {
    dto: ContactDto,
    args: { website: 'not a url' },
    expected: 'reject',
    gap: 'url-format',
  },
  'gap: url with a non-ASCII host, where a scheme is required': {
    dto: ContactDto,
    args: { homepage: 'https://bücher.de' },
    expected: 'reject',
    gap: 'url-format',
  },
  'gap: url without a top-level domain': {
    dto: ContactDto,
    args: { website: 'http://localhost:3000' },
    expected: 'reject',
    gap: 'url-format',
  },
  'gap: strict date that does not exist': {
    dto: ContactDto,
    args: { strictBorn: '2023-02-30' },
    expected: 'reject',
    gap: 'date-string-strict',
  },
  'gap: case-insensitive pattern, not matching': {
    dto: ContactDto,
    args: { code: 'xyz' },
    expected: 'reject',
    gap: 'matches-flags',
  },
  'gap: nested object given as an array': {
    dto: OrderDto,
    args: { ...order, shipping: [address] },
    expected: 'reject',
    gap: 'nested-array-or-object',
  },
  'gap: nested object left out without @IsDefined()': {
    dto: LooseOrderDto,
    args: {},
    expected: 'reject',
    gap: 'missing-value',
  },
  'gap: __proto__ key': {
    dto: ProductDto,
    args: JSON.parse('{"name":"Lamp","price":1,"quantity":1,"__proto__":{"admin":true}}'),
    expected: 'reject',
    gap: 'prototype-keys',
  },
};

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const factory = new DtoSchemaFactory();
const validator = new DtoArgumentsValidator();

/**
 * The schema as a server lists it. The rows compare it with class-validator, so they use
 * `nullableOptionals: true`, where `@IsOptional()` means what it means to class-validator
 * (null passes); the default form, which lists no null, has its own rows below.
 */
type Form = 'nullable' | 'default';
const schemas = {
  nullable: new Map<Function, JsonSchema>(),
  default: new Map<Function, JsonSchema>(),
};
const compiled = new Map<JsonSchema, { client: ValidateFunction; server: JsonSchemaCheck }>();

const checksOf = (dto: Function, form: Form) => {
  let schema = schemas[form].get(dto);
  if (!schema) {
    schema = factory.createInputSchema(dto, { nullableOptionals: form === 'nullable' });
    schemas[form].set(dto, schema);
  }
  let checks = compiled.get(schema);
  if (!checks) {
    checks = { client: ajv.compile(schema), server: compileJsonSchema(schema, 'the arguments') };
    compiled.set(schema, checks);
  }
  return checks;
};

const schemaVerdict = (dto: Function, args: unknown, form: Form = 'nullable'): Verdict =>
  // A tool call without arguments is an empty arguments object.
  checksOf(dto, form).client(args === undefined ? {} : args) ? 'accept' : 'reject';

/** The server: the tool's schema, then class-validator (DtoArgumentsValidator). */
const serverVerdict = async (
  dto: Function,
  args: unknown,
  form: Form = 'nullable',
): Promise<Verdict> => {
  const result = await validator.validate(
    dto as new () => object,
    args,
    checksOf(dto, form).server,
  );
  return result.ok ? 'accept' : 'reject';
};

/** class-validator and class-transformer alone, as behind a ValidationPipe. */
const classValidatorVerdict = async (dto: Function, args: unknown): Promise<Verdict> => {
  const instance = plainToInstance(dto as new () => object, structuredClone(args ?? {}));
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  return errors.length === 0 ? 'accept' : 'reject';
};

describe('the schema and the server agree', () => {
  const agreeing = Object.entries(rows).filter(([, row]) => !row.gap);
  const gaps = Object.entries(rows).filter(([, row]) => row.gap);

  it.each(agreeing)('%s', async (_label, { dto, args, expected }) => {
    expect({
      schema: schemaVerdict(dto, args),
      server: await serverVerdict(dto, args),
    }).toStrictEqual({ schema: expected, server: expected });
  });

  describe('except for the known gaps, where the schema or class-validator alone disagree the documented way', () => {
    it.each(gaps)('%s', async (_label, { dto, args, expected, gap }) => {
      const known = KNOWN_SCHEMA_GAPS.find((entry) => entry.id === gap);
      expect(known, `${gap} is listed in KNOWN_SCHEMA_GAPS`).toBeDefined();
      const verdicts = {
        schema: schemaVerdict(dto, args),
        server: await serverVerdict(dto, args),
        classValidator: await classValidatorVerdict(dto, args),
      };
      expect(verdicts.server).toBe(expected);
      // The server accepts only what both accept; the gap is the judge that accepts more.
      const looser = verdicts.schema === 'accept' && verdicts.server === 'reject';
      const stricter = verdicts.classValidator === 'accept' && verdicts.server === 'reject';
      expect(looser || stricter, JSON.stringify(verdicts)).toBe(true);
      expect([looser ? 'looser' : 'stricter', 'both']).toContain(known?.schema);
    });
  });

  describe('with optional properties listed without null (the default form)', () => {
    const defaultRows: Array<[string, Function, unknown, Verdict]> = [
      ['product: valid', ProductDto, product, 'accept'],
      [
        'product: every optional property set',
        ProductDto,
        rows['product: every optional property set'].args,
        'accept',
      ],
      [
        'product: null for optional properties',
        ProductDto,
        { ...product, color: null, tags: null },
        'reject',
      ],
      ['product: null for one optional property', ProductDto, { ...product, sort: null }, 'reject'],
      ['order: null for an optional string', OrderDto, { ...order, note: null }, 'reject'],
      [
        'category: null children, three levels down',
        CategoryDto,
        { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: null }] }] },
        'reject',
      ],
      [
        'category: children left out, three levels down',
        CategoryDto,
        { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] },
        'accept',
      ],
      ['PartialType: every property left out', UpdateProductDto, {}, 'accept'],
      ['PartialType: null for a property', UpdateProductDto, { name: null }, 'reject'],
    ];

    it.each(defaultRows)('%s', async (_label, dto, args, expected) => {
      expect({
        schema: schemaVerdict(dto, args, 'default'),
        server: await serverVerdict(dto, args, 'default'),
      }).toStrictEqual({ schema: expected, server: expected });
    });
  });

  it('covers valid and invalid values of every supported decorator', () => {
    expect(agreeing.filter(([, row]) => row.expected === 'accept').length).toBeGreaterThan(15);
    expect(agreeing.filter(([, row]) => row.expected === 'reject').length).toBeGreaterThan(40);
  });
});
