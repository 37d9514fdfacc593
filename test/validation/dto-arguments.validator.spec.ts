import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsDefined,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import {
  DtoArgumentsValidator,
  formatIssues,
} from '../../lib/validation/dto-arguments.validator.js';
import type { ArgumentIssue } from '../../lib/interfaces/argument-issue.interface.js';

class AddressDto {
  @IsString() street!: string;
  @Matches(/^\d{5}$/, { message: 'zip must be five digits' }) zip!: string;
}

class OrderLineDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

class CreateOrderDto {
  @IsDefined() @ValidateNested() @Type(() => AddressDto) shipping!: AddressDto;
  @IsArray() @ValidateNested({ each: true }) @Type(() => OrderLineDto) lines!: OrderLineDto[];
  @IsOptional() @IsString({ each: true }) tags?: string[];
}

class ProductDto {
  @IsString() name!: string;
  @IsNumber() @Min(0) price!: number;
}

class SearchDto {
  @IsOptional() @IsString() query?: string;
}

const validator = new DtoArgumentsValidator();
const address = { street: '1 Main St', zip: '12345' };

async function issuesOf(dto: new () => object, args: unknown): Promise<ArgumentIssue[]> {
  const result = await validator.validate(dto, args);
  if (result.ok) throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
  return result.issues;
}

describe('DtoArgumentsValidator', () => {
  it('returns an instance of the DTO, with nested DTO instances, on success', async () => {
    const result = await validator.validate(CreateOrderDto, {
      shipping: address,
      lines: [{ sku: 'A-1', quantity: 2 }],
      tags: ['gift'],
    });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toBeInstanceOf(CreateOrderDto);
    expect(result.value.shipping).toBeInstanceOf(AddressDto);
    expect(result.value.lines[0]).toBeInstanceOf(OrderLineDto);
    expect(result.value).toEqual({
      shipping: address,
      lines: [{ sku: 'A-1', quantity: 2 }],
      tags: ['gift'],
    });
  });

  it('treats missing arguments as an empty object', async () => {
    const optional = await validator.validate(SearchDto, undefined);
    expect(optional.ok && optional.value).toBeInstanceOf(SearchDto);

    expect(await issuesOf(ProductDto, undefined)).toStrictEqual([
      { path: '/name', constraint: 'isString', message: 'name must be a string' },
      { path: '/price', constraint: 'min', message: 'price must not be less than 0' },
      {
        path: '/price',
        constraint: 'isNumber',
        message: 'price must be a number conforming to the specified constraints',
      },
    ]);
  });

  it.each([
    [[], 'an array'],
    ['name=Lamp', 'a string'],
    [null, 'null'],
    [42, 'a number'],
  ])('rejects %j as arguments with one issue at the root', async (args, what) => {
    expect(await validator.validate(ProductDto, args)).toStrictEqual({
      ok: false,
      issues: [
        {
          path: '',
          constraint: 'isObject',
          message: `the arguments must be a JSON object, but got ${what}`,
        },
      ],
    });
  });

  it('names an unknown property and the properties that are allowed', async () => {
    expect(await issuesOf(ProductDto, { name: 'Lamp', price: -1, colour: 'red' })).toStrictEqual([
      {
        path: '/colour',
        constraint: 'whitelistValidation',
        message: 'property "colour" is not allowed; allowed properties: name, price',
      },
      { path: '/price', constraint: 'min', message: 'price must not be less than 0' },
    ]);
  });

  it('points into nested objects and array items, with the nested class’s allowed properties', async () => {
    const issues = await issuesOf(CreateOrderDto, {
      shipping: { street: '1 Main St', zip: '1234' },
      lines: [
        { sku: 'A-1', quantity: 1, discount: 5 },
        { sku: 'B-2', quantity: 0 },
      ],
    });

    expect(issues).toStrictEqual([
      { path: '/shipping/zip', constraint: 'matches', message: 'zip must be five digits' },
      {
        path: '/lines/0/discount',
        constraint: 'whitelistValidation',
        message: 'property "discount" is not allowed; allowed properties: sku, quantity',
      },
      { path: '/lines/1/quantity', constraint: 'min', message: 'quantity must not be less than 1' },
    ]);
  });

  it('reports a nested value that is not an object at the property', async () => {
    expect(await issuesOf(CreateOrderDto, { shipping: 'home', lines: [] })).toStrictEqual([
      {
        path: '/shipping',
        constraint: 'nestedValidation',
        message: 'nested property shipping must be either object or array',
      },
    ]);
  });

  it('reports a rule with each: true at the array, as class-validator does', async () => {
    expect(
      await issuesOf(CreateOrderDto, { shipping: address, lines: [], tags: ['ok', 7] }),
    ).toStrictEqual([
      { path: '/tags', constraint: 'isString', message: 'each value in tags must be a string' },
    ]);
  });

  it('escapes "~" and "/" in pointers (RFC 6901)', async () => {
    class WeirdKeysDto {
      @IsString() 'a/b'!: string;
    }
    expect(await issuesOf(WeirdKeysDto, { 'a/b': 1, 'x~y': 2 })).toStrictEqual([
      {
        path: '/x~0y',
        constraint: 'whitelistValidation',
        message: 'property "x~y" is not allowed; allowed properties: a/b',
      },
      { path: '/a~1b', constraint: 'isString', message: 'a/b must be a string' },
    ]);
  });

  it('rejects keys class-transformer and class-validator would let slip through', async () => {
    const args = JSON.parse(
      '{"name":"Lamp","price":1,"__proto__":{"isAdmin":true},"hasOwnProperty":1}',
    );
    expect(await issuesOf(ProductDto, args)).toStrictEqual([
      {
        path: '/__proto__',
        constraint: 'whitelistValidation',
        message: 'property "__proto__" is not allowed; allowed properties: name, price',
      },
      {
        path: '/hasOwnProperty',
        constraint: 'whitelistValidation',
        message: 'property "hasOwnProperty" is not allowed; allowed properties: name, price',
      },
    ]);
  });

  it('accepts only an empty object for a DTO without properties', async () => {
    class PingDto {}
    const ok = await validator.validate(PingDto, {});
    expect(ok.ok && ok.value).toBeInstanceOf(PingDto);
    expect(await issuesOf(PingDto, { force: true })).toStrictEqual([
      {
        path: '/force',
        constraint: 'whitelistValidation',
        message: 'property "force" is not allowed; allowed properties: (none)',
      },
    ]);
  });

  it('builds a nested DTO from design:type when @Type() is missing, like the schema', async () => {
    class PickupDto {
      @IsDefined() @ValidateNested() address!: AddressDto;
    }
    const result = await validator.validate(PickupDto, { address });
    expect(result.ok && result.value.address).toBeInstanceOf(AddressDto);
    expect(await issuesOf(PickupDto, { address: { ...address, zip: 'x' } })).toStrictEqual([
      { path: '/address/zip', constraint: 'matches', message: 'zip must be five digits' },
    ]);
  });
});

describe('formatIssues', () => {
  it('lists each issue with its pointer, so a model can fix the fields and retry', () => {
    expect(
      formatIssues([
        { path: '/price', constraint: 'min', message: 'price must not be less than 0' },
        {
          path: '/colour',
          constraint: 'whitelistValidation',
          message: 'property "colour" is not allowed; allowed properties: name, price',
        },
        {
          path: '',
          constraint: 'isObject',
          message: 'the arguments must be a JSON object, but got null',
        },
      ]),
    ).toBe(
      'Invalid arguments:\n' +
        '- /price: price must not be less than 0\n' +
        '- /colour: property "colour" is not allowed; allowed properties: name, price\n' +
        '- (root): the arguments must be a JSON object, but got null',
    );
  });
});
