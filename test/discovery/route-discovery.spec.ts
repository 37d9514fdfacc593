import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  ParseIntPipe,
  Patch,
  Query,
  Res,
} from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { McpConfigurationError, McpHidden, McpTool, McpTools } from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { McpExplorer } from '../../lib/discovery/mcp.explorer.js';
import { bootApp, bootError, closeApps } from './discovery-boot.js';

class UpdateProductDto {
  @IsString()
  id!: string;

  @IsOptional()
  @IsString()
  name?: string;
}

class FilterDto {
  @IsOptional()
  @IsString()
  category?: string;
}

afterEach(closeApps);

describe('routes as tools, from a real Nest app', () => {
  it('fails the bootstrap when a name comes from two places, naming both', async () => {
    @Controller('products')
    class ProductsController {
      @Patch(':id')
      @McpTool({ description: 'Update a product.' })
      update(@Param('id') _id: string, @Body() _dto: UpdateProductDto) {}
    }
    const error = await bootError([], { controllers: [ProductsController] });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe(
      'ProductsController.update is published as a tool whose arguments are one flat object ' +
        'made of the route\'s @Param(), @Query() and @Body(), and the argument "id" comes from ' +
        "both @Param('id') and UpdateProductDto.id. Give each name one source: rename one of " +
        'them, leave the property out of the DTO (OmitType() of @nestjs/mapped-types or ' +
        "@nestjs/swagger), or keep the route off MCP with @McpHidden('why').",
    );
  });

  it('names two named parameters of the same name', async () => {
    @Controller('search')
    class SearchController {
      @Get(':category')
      @McpTool({ description: 'Search.' })
      search(@Param('category') _a: string, @Query('category') _b: string) {}
    }
    const error = await bootError([], { controllers: [SearchController] });
    expect(error.message).toContain("comes from both @Param('category') and @Query('category')");
  });

  it('names a query DTO property that repeats a path parameter', async () => {
    @Controller('shops')
    class ShopsController {
      @Get(':category')
      @McpTool({ description: 'Search a shop.' })
      search(@Param('category') _category: string, @Query() _filter: FilterDto) {}
    }
    const error = await bootError([], { controllers: [ShopsController] });
    expect(error.message).toContain("comes from both @Param('category') and FilterDto.category");
  });

  it('refuses a route parameter an MCP call has nothing for, saying how to keep it off MCP', async () => {
    @McpTools()
    @Controller('files')
    class FilesController {
      @Get(':name')
      download(@Param('name') _name: string, @Res() _response: unknown) {}
    }
    const error = await bootError([], { controllers: [FilesController] });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe(
      'Parameter 1 of FilesController.download has @Res(), which an MCP call has nothing for. ' +
        'A route published as a tool takes @Param(), @Query(), @Body(), @Headers(), @Req(), ' +
        "@McpContext() and custom parameter decorators. Keep this route off MCP with @McpHidden('why'), " +
        'or drop the parameter.',
    );
  });

  it('publishes every route of an @McpTools() controller and none of its helpers', async () => {
    @McpTools()
    @Controller('orders')
    class OrdersController {
      @Get(':id')
      findOne(@Param('id', ParseIntPipe) id: number) {
        return this.format(id);
      }

      @Get()
      list(@Query() _filter: FilterDto) {}

      @Delete(':id')
      @McpHidden('Refunds are done by the finance team.')
      remove(@Param('id', ParseIntPipe) _id: number) {}

      format(id: number) {
        return `order ${id}`;
      }
    }
    const { app } = await bootApp([], { controllers: [OrdersController] });
    const explored = app.get(McpExplorer, { strict: false }).explore();
    expect(
      explored.tools.map(({ definition }) => [definition.name, definition.annotations]),
    ).toEqual([
      ['find_one', { readOnlyHint: true }],
      ['list', { readOnlyHint: true }],
    ]);
    expect(explored.hidden.map((hidden) => hidden.where)).toEqual(['OrdersController.remove']);
  });

  it('lets class annotations of @McpTools() win over the inferred ones', async () => {
    @McpTools({ annotations: { readOnlyHint: false, openWorldHint: true } })
    @Controller('feeds')
    class FeedsController {
      @Get(':id')
      refresh(@Param('id') _id: string) {}
    }
    const { app } = await bootApp([], { controllers: [FeedsController] });
    const [tool] = app.get(McpExplorer, { strict: false }).explore().tools;
    expect(tool?.definition.annotations).toEqual({ readOnlyHint: false, openWorldHint: true });
  });
});
