import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { Exclude, Type } from 'class-transformer';
import { IsArray, IsDate, IsNumber, IsString, Min, ValidateNested } from 'class-validator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolOutputValidator } from '../../lib/validation/tool-output.validator.js';
import { normalizeToolResult } from '../../lib/execution/tool-result.normalizer.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';

class TagDto {
  @IsString() name!: string;
}

class ProductDto {
  @IsString() id!: string;
  @IsNumber() @Min(0) price!: number;
  @IsDate() createdAt!: Date;
  @IsArray() @ValidateNested({ each: true }) @Type(() => TagDto) tags!: TagDto[];
  @Exclude() costPrice = 3;

  constructor(id = 'p1', price = 10) {
    this.id = id;
    this.price = price;
    this.createdAt = new Date('2026-01-02T03:04:05Z');
    this.tags = [{ name: 'new' }];
  }
}

const factory = new DtoSchemaFactory();
const products = new ToolOutputValidator(
  'list_products',
  'CatalogService.list',
  factory.createOutputSchema([ProductDto]),
);
const count = new ToolOutputValidator(
  'count',
  'CatalogService.count',
  factory.createOutputSchema(Number),
);

afterEach(() => vi.restoreAllMocks());

describe('ToolOutputValidator', () => {
  it('passes a result that matches: class instances serialised as Nest does, dates as strings', () => {
    const result = normalizeToolResult([new ProductDto()], { structured: true });
    expect(result.structuredContent).toEqual([
      { id: 'p1', price: 10, createdAt: '2026-01-02T03:04:05.000Z', tags: [{ name: 'new' }] },
    ]);
    expect(products.apply(result, 'modern')).toBe(result);
  });

  it('turns a mismatch into an isError result that names it, and logs it', () => {
    const error = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const result = products.apply(
      normalizeToolResult([{ id: 'p1', price: -1, createdAt: 'yesterday', tags: [], extra: 1 }], {
        structured: true,
      }),
      'modern',
    );
    expect(result).toStrictEqual({
      content: [
        {
          type: 'text',
          text:
            'Internal error: the result of "list_products" does not match its declared output ' +
            'schema, so it was not sent:\n' +
            '- /0/extra: property "extra" is not allowed; allowed properties: id, price, createdAt, tags\n' +
            '- /0/price: price must be >= 0\n' +
            '- /0/createdAt: createdAt must match format "date-time"',
        },
      ],
      isError: true,
    });
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('Tool "list_products" (CatalogService.list) returned a result'),
    );
  });

  it('refuses a success result without data', () => {
    vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const result = count.apply({ content: [{ type: 'text', text: '3' }] }, 'legacy');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('returned no data');
  });

  it('checks a scalar output, sent as structured content too', () => {
    const result = normalizeToolResult(3, { structured: true });
    expect(result).toStrictEqual({ content: [{ type: 'text', text: '3' }], structuredContent: 3 });
    expect(count.apply(result, 'legacy')).toBe(result);
    vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect(count.apply(normalizeToolResult('three', { structured: true }), 'legacy').isError).toBe(
      true,
    );
  });

  it('drops the structured content of an error for 2025-era clients only', () => {
    const failure = {
      content: [{ type: 'text' as const, text: 'Invalid arguments' }],
      structuredContent: { error: 'invalid_arguments', issues: [] },
      isError: true,
    };
    expect(products.apply(failure, 'legacy')).toStrictEqual({
      content: failure.content,
      isError: true,
    });
    expect(products.apply(failure, 'modern')).toBe(failure);
  });
});
