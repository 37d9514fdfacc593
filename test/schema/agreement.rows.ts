import 'reflect-metadata';
import { PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
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
  ValidateNested,
} from 'class-validator';
import type { KnownSchemaGapId } from '../../lib/schema/known-schema-gaps.js';

/*
 * The rows of the agreement table (schema-agreement.spec.ts): DTOs and arguments with the
 * server's verdict, and for the rows where the schema or class-validator alone decides
 * otherwise, the gap. dto-arguments.exact-schema.spec.ts runs them through the validator
 * with and without class-validator skipped.
 */

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low = 1,
  High = 2,
}

export class ProductDto {
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

export class ContactDto {
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsUrl() website?: string;
  @IsOptional() @IsUrl({ require_protocol: true }) homepage?: string;
  @IsOptional() @IsUUID() id?: string;
  @IsOptional() @IsUUID('4') v4?: string;
  @IsOptional() @IsDateString() born?: string;
  @IsOptional() @IsDateString({ strict: true }) strictBorn?: string;
  @IsOptional() @Matches(/^abc$/i) code?: string;
}

export class AddressDto {
  @IsString() street!: string;
  @Matches(/^\d{5}$/) zip!: string;
}

export class OrderLineDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

export class OrderDto {
  @IsDefined() @ValidateNested() @Type(() => AddressDto) shipping!: AddressDto;
  @IsArray() @ValidateNested({ each: true }) @Type(() => OrderLineDto) lines!: OrderLineDto[];
  @IsOptional() @IsString() note?: string;
}

export class CategoryDto {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => CategoryDto) children?: CategoryDto[];
}

/** No @Type(): the schema and the validator both fall back to design:type. */
export class PickupDto {
  @IsDefined() @ValidateNested() address!: AddressDto;
}

/** @ValidateNested() alone: class-validator does not check that the value is there. */
export class LooseOrderDto {
  @ValidateNested() @Type(() => AddressDto) shipping!: AddressDto;
}

export class PingDto {}

export class UpdateProductDto extends PartialType(ProductDto) {}

export const product = { name: 'Lamp', price: 12.5, quantity: 3 };
export const address = { street: '1 Main St', zip: '12345' };
export const order = { shipping: address, lines: [{ sku: 'A-1', quantity: 1 }] };

export type Verdict = 'accept' | 'reject';
export interface Row {
  readonly dto: Function;
  readonly args: unknown;
  readonly expected: Verdict;
  /** Rows where the schema or class-validator alone decides otherwise: the gap. */
  readonly gap?: KnownSchemaGapId;
}

export const AGREEMENT_ROWS: Readonly<Record<string, Row>> = {
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
