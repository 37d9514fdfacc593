import {
  Body,
  Controller,
  DefaultValuePipe,
  Delete,
  Get,
  Headers,
  Param,
  ParseArrayPipe,
  ParseBoolPipe,
  ParseEnumPipe,
  ParseFloatPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  Patch,
  Post,
  Put,
  Query,
  Req,
} from '@nestjs/common';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { McpConfigurationError, McpContext, McpTool } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { RouteArguments } from '../../lib/discovery/route-arguments.js';
import { RouteParamtypes } from '../../lib/utils/nest-internals.js';
import { definitionFactories, WRAPPER } from './definition-factories.js';

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

enum Priority {
  Low = 1,
  High = 2,
}

class UpdateProductDto {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  stock?: number;
}

class ProductParamsDto {
  @IsString()
  shop!: string;

  @IsOptional()
  @IsString()
  sku?: string;
}

class PageQueryDto {
  @IsOptional()
  @IsInt()
  page?: number;
}

class TagDto {
  @IsString()
  label!: string;
}

@Controller('products')
class ProductsController {
  @Patch(':id')
  @McpTool({ description: 'Update a product.' })
  update(@Param('id', ParseUUIDPipe) _id: string, @Body() _dto: UpdateProductDto) {}

  @Get(':shop/:sku')
  @McpTool({ description: 'A product of a shop.' })
  inShop(@Param() _params: ProductParamsDto, @Query() _query: PageQueryDto) {}

  @Get()
  @McpTool({ description: 'Every built-in pipe.' })
  pipes(
    @Query('count', ParseIntPipe) _count: number,
    @Query('ratio', new ParseFloatPipe()) _ratio: number,
    @Query('active', ParseBoolPipe) _active: boolean,
    @Query('ref', new ParseUUIDPipe({ version: '4' })) _ref: string,
    @Query('colour', new ParseEnumPipe(Colour)) _colour: Colour,
    @Query('priority', new ParseEnumPipe(Priority)) _priority: Priority,
    @Query('ids', new ParseArrayPipe({ items: Number })) _ids: number[],
    @Query('tags', new ParseArrayPipe({ items: TagDto })) _tags: TagDto[],
    @Query('any', ParseArrayPipe) _any: unknown[],
    @Query('page', new DefaultValuePipe(1), ParseIntPipe) _page: number,
    @Query('limit', new ParseIntPipe({ optional: true })) _limit?: number,
  ) {}

  @Post()
  @McpTool({ description: 'Named body fields and design types.' })
  create(
    @Body('name') _name: string,
    @Body('price') _price: number,
    @Body('featured') _featured: boolean,
    @Body('tag') _tag: TagDto,
    @Query('dryRun', new DefaultValuePipe(false), ParseBoolPipe) _dryRun: boolean,
    @Headers('x-user') _user: string,
    @Req() _request: unknown,
    @McpContext() _context: unknown,
  ) {}

  @Delete(':id')
  @McpTool({ description: 'Delete a product.' })
  remove(@Param('id', new DefaultValuePipe(7), ParseIntPipe) _id: number) {}

  @Put(':id')
  @McpTool({ description: 'Replace a product.' })
  replace(@Param('id', ParseIntPipe) _id: number, @Body() _dto: UpdateProductDto) {}

  @Get('one')
  @McpTool({ description: 'One whole query DTO: a tool like any other.' })
  search(@Query() _query: PageQueryDto) {}
}

// The factory is given the options the explorer would read from @McpTool().
const schemaOf = (method: keyof ProductsController, options = {}) =>
  definitionFactories().tools.create(WRAPPER, ProductsController, method, {
    description: 'x',
    ...options,
  }).definition.inputSchema;

describe('route tools: the merged input schema', () => {
  it('merges a named @Param() with a @Body() DTO into one flat object', () => {
    expect(schemaOf('update')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        stock: { type: 'integer', minimum: 0 },
      },
      required: ['id', 'name'],
      additionalProperties: false,
    });
  });

  it('takes a params DTO and a query DTO property by property; path params are required', () => {
    expect(schemaOf('inShop')).toEqual({
      type: 'object',
      properties: {
        shop: { type: 'string' },
        sku: { type: 'string' },
        page: { type: 'integer' },
      },
      // `sku` is @IsOptional() in the DTO, but a path parameter is always in the URL.
      required: ['shop', 'sku'],
      additionalProperties: false,
    });
  });

  it('reads every built-in pipe, as a class or an instance', () => {
    const schema = schemaOf('pipes');
    expect(schema.properties).toEqual({
      count: { type: 'integer' },
      ratio: { type: 'number' },
      active: { type: 'boolean' },
      ref: { type: 'string', format: 'uuid' },
      colour: { type: 'string', enum: ['red', 'blue'] },
      priority: { type: 'number', enum: [1, 2] },
      ids: { type: 'array', items: { type: 'number' } },
      tags: {
        type: 'array',
        items: {
          type: 'object',
          properties: { label: { type: 'string' } },
          required: ['label'],
          additionalProperties: false,
        },
      },
      any: { type: 'array' },
      page: { type: 'integer', default: 1 },
      limit: { type: 'integer' },
    });
    // DefaultValuePipe and `{ optional: true }` let a missing value through; nothing else does.
    expect(schema.required).toEqual([
      'count',
      'ratio',
      'active',
      'ref',
      'colour',
      'priority',
      'ids',
      'tags',
      'any',
    ]);
  });

  it('types named body fields by their TypeScript types, and skips injected parameters', () => {
    expect(schemaOf('create')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        featured: { type: 'boolean' },
        tag: {
          type: 'object',
          properties: { label: { type: 'string' } },
          required: ['label'],
          additionalProperties: false,
        },
        dryRun: { type: 'boolean', default: false },
      },
      required: ['name', 'price', 'featured', 'tag'],
      additionalProperties: false,
    });
  });

  it('keeps a path parameter required even with a DefaultValuePipe', () => {
    expect(schemaOf('remove')).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('applies the "arguments" option to the merged properties', () => {
    const options = {
      arguments: {
        id: 'The product id.',
        name: { description: 'Its name.', examples: ['Kettle'] },
      },
    };
    expect(schemaOf('replace', options).properties).toMatchObject({
      id: { type: 'integer', description: 'The product id.' },
      name: { type: 'string', description: 'Its name.', examples: ['Kettle'] },
    });
  });

  it('leaves a route with one whole @Query() DTO as it was', () => {
    expect(schemaOf('search')).toEqual({
      type: 'object',
      properties: { page: { type: 'integer' } },
      additionalProperties: false,
    });
  });
});

const annotations = (method: keyof ProductsController, options = {}) =>
  definitionFactories().tools.create(WRAPPER, ProductsController, method, {
    description: 'x',
    ...options,
  }).definition.annotations;

describe('route tools: annotations from the HTTP method', () => {
  it('infers them from GET, DELETE, PUT, POST and PATCH', () => {
    expect(annotations('pipes')).toEqual({ readOnlyHint: true });
    expect(annotations('remove')).toEqual({ destructiveHint: true });
    expect(annotations('replace')).toEqual({ idempotentHint: true });
    expect(annotations('create')).toEqual({ readOnlyHint: false });
    expect(annotations('update')).toEqual({ readOnlyHint: false });
  });

  it('lets explicit options win, hint by hint', () => {
    expect(
      annotations('remove', { annotations: { destructiveHint: false, openWorldHint: false } }),
    ).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(annotations('pipes', { annotations: { idempotentHint: true } })).toEqual({
      readOnlyHint: true,
      idempotentHint: true,
    });
  });
});

const failure = (target: Function, method: string, options = {}) => {
  try {
    definitionFactories().tools.create(WRAPPER, target as never, method, {
      description: 'x',
      ...options,
    });
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
};

describe('route tools: what bootstrap refuses', () => {
  @Controller('bad')
  class BadController {
    @Get(':id')
    untyped(@Param('id') _id: string, @Query() _query: Record<string, string>) {}

    @Get(':id')
    undecorated(@Param('id') _id: string, _extra: PageQueryDto) {}

    @Get(':id')
    withSchema(@Param('id') _id: string) {}
  }

  it('refuses a whole @Query() that is not a DTO class', () => {
    expect(failure(BadController, 'untyped')).toBe(
      'Parameter 1 of BadController.untyped takes the whole @Query() object, but its type is ' +
        "Object, not a DTO class, so the tool's schema cannot list its properties. Declare it " +
        "as a class with class-validator decorators, or take each value by name (@Query('name')).",
    );
  });

  it('refuses a parameter without a decorator', () => {
    expect(failure(BadController, 'undecorated')).toContain(
      'Parameter 1 of BadController.undecorated has no parameter decorator',
    );
  });

  it('refuses the inputSchema option on a route with merged arguments', () => {
    expect(failure(BadController, 'withSchema', { inputSchema: { type: 'object' } })).toContain(
      'BadController.withSchema has the "inputSchema" option',
    );
  });

  it('refuses an "arguments" option naming no parameter of the route', () => {
    expect(failure(ProductsController, 'update', { arguments: { nope: 'x' } })).toBe(
      'The "arguments" option of ProductsController.update names "nope", which no @Param(), ' +
        '@Query() or @Body() of the route gives. Its arguments: id, name, stock.',
    );
  });
});

const UUID = '3f2c8a4e-9b1d-4c7e-8f60-2a5b9d0e1c34';
const update = () =>
  definitionFactories().tools.create(WRAPPER, ProductsController, 'update', { description: 'x' });

describe('route tools: the arguments check', () => {
  it('splits valid arguments back into path parameters and body', async () => {
    const checked = await update().checkArguments({ id: UUID, name: 'Kettle' });
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const value = checked.value as RouteArguments;
    expect(value).toBeInstanceOf(RouteArguments);
    expect(value.valueOf(RouteParamtypes.PARAM, 'id')).toBe(UUID);
    const body = value.valueOf(RouteParamtypes.BODY, undefined);
    expect(body).toBeInstanceOf(UpdateProductDto);
    expect(body).toEqual({ name: 'Kettle' });
  });

  it('names each problem by its pointer, the DTO rules and the merged schema together', async () => {
    const checked = await update().checkArguments({ name: 3, stock: -1, extra: true });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map(({ path, constraint }) => [path, constraint])).toEqual([
      ['/name', 'isString'],
      ['/stock', 'min'],
      ['/id', 'required'],
      ['/extra', 'additionalProperties'],
    ]);
  });

  it('lists optional DTO properties as nullable for schema.nullableOptionals', async () => {
    const tool = update();
    const variant = tool.withNullableOptionals?.();
    expect(variant?.definition.inputSchema.properties).toEqual({
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      stock: { type: ['integer', 'null'], minimum: 0 },
    });
    expect((await variant!.checkArguments({ id: UUID, name: 'x', stock: null })).ok).toBe(true);
    expect((await tool.checkArguments({ id: UUID, name: 'x', stock: null })).ok).toBe(false);
  });
});

describe('route tools: descriptions of named parameters from their @param docblocks', () => {
  @Controller('docs')
  class DocumentedController {
    /** What `nestjs-mcp/plugin` adds to a class compiled with it. */
    static _MCP_DOCBLOCK_METADATA() {
      return {
        methods: {
          find: {
            description: 'Find a product.',
            params: [
              { index: 0, description: 'The product id.' },
              { index: 1, description: 'The locale of the texts.' },
            ],
          },
        },
      };
    }

    @Get(':id')
    @McpTool()
    find(@Param('id', ParseIntPipe) _id: number, @Query('locale') _locale: string) {}
  }

  const create = (options = {}) =>
    definitionFactories().tools.create(WRAPPER, DocumentedController, 'find', options).definition;

  it('describes each named parameter by its @param tag', () => {
    expect(create().inputSchema.properties).toEqual({
      id: { type: 'integer', description: 'The product id.' },
      locale: { type: 'string', description: 'The locale of the texts.' },
    });
  });

  it('lets the "arguments" option win over the docblock', () => {
    expect(create({ arguments: { id: 'Its id.' } }).inputSchema.properties?.id).toEqual({
      type: 'integer',
      description: 'Its id.',
    });
  });
});
