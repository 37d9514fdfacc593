import { DefaultValuePipe, ParseArrayPipe, ParseIntPipe, ParseUUIDPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { describe, expect, it } from 'vitest';
import type { RouteArgumentSource } from '../../lib/discovery/route-parameters.reader.js';
import { RouteSchemaBuilder } from '../../lib/discovery/route-schema.builder.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { RouteParamtypes } from '../../lib/utils/nest-internals.js';

// The sources are written as readRouteSources() reads them from a route's decorators; the
// specs of route-schema.spec.ts start from real controllers.

const WHERE = 'ProductsController#update';

const param = (name: string | undefined, type: unknown, ...pipes: unknown[]) =>
  ({ paramtype: RouteParamtypes.PARAM, index: 0, name, type, pipes }) as RouteArgumentSource;
const query = (name: string | undefined, type: unknown, ...pipes: unknown[]) =>
  ({ paramtype: RouteParamtypes.QUERY, index: 1, name, type, pipes }) as RouteArgumentSource;
const body = (name: string | undefined, type: unknown, ...pipes: unknown[]) =>
  ({ paramtype: RouteParamtypes.BODY, index: 2, name, type, pipes }) as RouteArgumentSource;

const builder = (options?: ConstructorParameters<typeof RouteSchemaBuilder>[2]) =>
  new RouteSchemaBuilder(new DtoSchemaFactory(), WHERE, options);

class AddressDto {
  @IsString()
  street!: string;
}

class UpdateProductDto {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  stock?: number;
}

class TagDto {
  @IsString()
  label!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  origin?: AddressDto;
}

describe('RouteSchemaBuilder: named parameters', () => {
  it('types a value by its TypeScript type when no pipe decides it', () => {
    const { schema } = builder().build([
      body('name', String),
      body('price', Number),
      body('featured', Boolean),
      body('at', Date),
      body('tags', Array),
      body('extra', Object),
    ]);
    expect(schema.properties).toEqual({
      name: { type: 'string' },
      price: { type: 'number' },
      featured: { type: 'boolean' },
      at: { type: 'string', format: 'date-time' },
      tags: { type: 'array' },
      // Anything may come in a body field typed `object`.
      extra: {},
    });
  });

  it('types an untyped path parameter as a string, as a URL only carries strings', () => {
    expect(builder().build([param('id', Object)]).schema.properties).toEqual({
      id: { type: 'string' },
    });
  });

  it('lets the pipes decide the type, and a DefaultValuePipe give a default and optionality', () => {
    const { schema } = builder().build([
      param('id', String, ParseUUIDPipe),
      query('page', Number, new DefaultValuePipe(1), ParseIntPipe),
      query('limit', Number, new ParseIntPipe({ optional: true })),
      query('q', String),
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        page: { type: 'integer', default: 1 },
        limit: { type: 'integer' },
        q: { type: 'string' },
      },
      required: ['id', 'q'],
      additionalProperties: false,
    });
  });

  it('keeps a path parameter required, and without a default, whatever its pipes say', () => {
    const { schema } = builder().build([
      param('id', Number, new DefaultValuePipe(7), ParseIntPipe),
    ]);
    expect(schema.properties).toEqual({ id: { type: 'integer' } });
    expect(schema.required).toEqual(['id']);
  });

  it('inlines a DTO-typed value and the item class of an array pipe, their nested classes in $defs', () => {
    const { schema } = builder().build([
      body('tag', TagDto),
      query('tags', Array, new ParseArrayPipe({ items: TagDto })),
    ]);
    const tag = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        origin: { $ref: '#/$defs/AddressDto' },
      },
      required: ['label'],
      additionalProperties: false,
    };
    expect(schema.properties).toEqual({ tag, tags: { type: 'array', items: tag } });
    expect(schema.$defs).toEqual({
      AddressDto: {
        type: 'object',
        properties: { street: { type: 'string' } },
        required: ['street'],
        additionalProperties: false,
      },
    });
  });
});

describe('RouteSchemaBuilder: whole-object DTOs', () => {
  it('gives the properties of each DTO, and says which source owns which', () => {
    class ParamsDto {
      @IsString()
      shop!: string;

      @IsOptional()
      @IsString()
      sku?: string;
    }
    const params = param(undefined, ParamsDto);
    const update = body(undefined, UpdateProductDto);
    const { schema, properties } = builder().build([params, update]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        shop: { type: 'string' },
        // In the URL, so required even though the DTO lets it be missing.
        sku: { type: 'string' },
        name: { type: 'string' },
        stock: { type: 'integer' },
      },
      required: ['shop', 'sku', 'name'],
      additionalProperties: false,
    });
    expect([...properties]).toEqual([
      [params, ['shop', 'sku']],
      [update, ['name', 'stock']],
    ]);
  });

  it('lists optional DTO properties as nullable with nullableOptionals', () => {
    const { schema } = builder({ nullableOptionals: true }).build([
      body(undefined, UpdateProductDto),
    ]);
    expect(schema.properties?.stock).toEqual({ type: ['integer', 'null'] });
  });

  it('shares a nested class two DTOs both use', () => {
    class ShippingDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => AddressDto)
      to!: AddressDto;
    }
    const { schema } = builder().build([query(undefined, ShippingDto), body('tag', TagDto)]);
    expect(Object.keys(schema.$defs ?? {})).toEqual(['AddressDto']);
  });

  it('refuses two different nested classes of the same name', () => {
    const other = (() => {
      // oxlint-disable-next-line no-shadow -- the point: another class of the same name
      class AddressDto {
        @IsInt()
        zip!: number;
      }
      return AddressDto;
    })();
    class ShippingDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => other)
      to!: object;
    }
    const building = () => builder().build([query(undefined, ShippingDto), body('tag', TagDto)]);
    expect(building).toThrow(McpConfigurationError);
    expect(building).toThrow(
      `${WHERE}: two DTOs of the route's parameters use two different nested classes named ` +
        `"AddressDto", and the tool's schema lists nested classes by name in "$defs". Rename one class.`,
    );
  });
});

describe('RouteSchemaBuilder: one source per argument', () => {
  it('refuses a name two parameters give, naming both', () => {
    class WithIdDto {
      @IsString()
      id!: string;
    }
    expect(() => builder().build([param('id', String), body(undefined, WithIdDto)])).toThrow(
      `the argument "id" comes from both @Param('id') and WithIdDto.id.`,
    );
    expect(() => builder().build([param('id', String), query('id', String)])).toThrow(
      `the argument "id" comes from both @Param('id') and @Query('id').`,
    );
  });
});

describe('RouteSchemaBuilder: texts', () => {
  it('describes a named parameter by its docblock, unless its schema has a description', () => {
    const { schema } = builder({
      parameterDescription: (index) => ['The product id.', 'The page.', 'The tag.'][index],
    }).build([param('id', String), query('page', Number), body(undefined, UpdateProductDto)]);
    expect(schema.properties).toEqual({
      id: { type: 'string', description: 'The product id.' },
      page: { type: 'number', description: 'The page.' },
      name: { type: 'string' },
      stock: { type: 'integer' },
    });
  });

  it('applies the "arguments" option over the docblock, as a text or field by field', () => {
    const { schema } = builder({
      parameterDescription: () => 'From the docblock.',
      arguments: {
        id: 'The id of the product to change.',
        name: { examples: ['Lamp'], deprecated: true },
      },
    }).build([param('id', String), body(undefined, UpdateProductDto)]);
    expect(schema.properties).toEqual({
      id: { type: 'string', description: 'The id of the product to change.' },
      name: { type: 'string', examples: ['Lamp'], deprecated: true },
      stock: { type: 'integer' },
    });
  });

  it('refuses an "arguments" key that names no argument, listing the arguments', () => {
    expect(() =>
      builder({ arguments: { sku: 'x' } }).build([param('id', String), query('page', Number)]),
    ).toThrow(
      new McpConfigurationError(
        `The "arguments" option of ${WHERE} names "sku", which no @Param(), @Query() or @Body() ` +
          'of the route gives. Its arguments: id, page.',
      ),
    );
    expect(() => builder({ arguments: { sku: 'x' } }).build([])).toThrow(
      /Its arguments: \(none\)\.$/,
    );
  });

  it('refuses an "arguments" key named like what every object inherits, and changes nothing', () => {
    expect(() =>
      builder({ arguments: { toString: 'Hacked' } }).build([query('q', String)]),
    ).toThrow(/names "toString", which no @Param\(\), @Query\(\) or @Body\(\)/);
    expect(Object.prototype.toString).not.toHaveProperty('description');
  });

  it('keeps a parameter named __proto__ as a property', () => {
    const { schema } = builder().build([query('__proto__', String)]);
    expect(Object.keys(schema.properties ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
  });
});
