import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { McpHidden, McpScopes, McpTool, McpTools } from 'nestjs-mcp';
import { BearerTokenGuard } from '../auth/bearer-token.guard.js';
import { Roles } from '../auth/roles.decorator.js';
import { RolesGuard } from '../auth/roles.guard.js';
import { CatalogService } from './catalog.service.js';
import { CreateProductDto } from './dto/create-product.dto.js';
import { DeleteProductDto } from './dto/delete-product.dto.js';
import { GetProductDto } from './dto/get-product.dto.js';
import { SearchProductsDto } from './dto/search-products.dto.js';
import { UpdateProductDto } from './dto/update-product.dto.js';
import type { Product, ProductPage } from './product.entity.js';

/**
 * The catalog's REST API, which the app had before MCP. It uses the same service as the tools.
 *
 * Its routes are MCP tools as well (`@McpTools()`), but for the two that the service's tools
 * already cover (`@McpHidden()`). A call runs the route's own pipeline, its guards and parameter
 * pipes included, and the method receives what it would over HTTP. The arguments are the route's
 * path parameters and body in one object, the hints come from the HTTP method, and the
 * descriptions from the docblocks below (built with the `nestjs-mcp/plugin` compiler plugin,
 * see scripts/build-sample.mjs).
 */
@Controller('products')
@UseGuards(BearerTokenGuard)
@McpTools()
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @McpHidden('search_products is this search as a tool, with the description a model needs.')
  search(@Query() query: SearchProductsDto): ProductPage {
    return this.catalog.searchProducts(query);
  }

  /**
   * Get one product by its id (a UUID, as returned by search_products), as the REST API
   * serves it at GET /products/:id.
   *
   * Returns its SKU, name, description, category, price in EUR, units in stock and tags.
   * Fails with Not Found when no product has that id.
   */
  @Get(':id')
  @McpTool({ name: 'catalog_get', title: 'Get a product (REST)' })
  @McpScopes('catalog.read')
  findOne(@Param() params: GetProductDto): Product {
    return this.catalog.getProduct(params);
  }

  @Post()
  @McpHidden('create_product is this as a tool, with the description a model needs.')
  @UseGuards(RolesGuard)
  @Roles('admin')
  create(@Body() input: CreateProductDto): Product {
    return this.catalog.createProduct(input);
  }

  /**
   * Change some fields of a product: its name, description, category, price, stock or tags.
   *
   * Needs the admin role (catalog.write scope). Send only the fields to change; the SKU cannot
   * be changed. Returns the product as it is after the change. Fails with Not Found when no
   * product has that id.
   *
   * @param id The id of the product to change (a UUID, as returned by search_products).
   * @param changes The fields to change.
   */
  @Patch(':id')
  @McpTool({ name: 'catalog_update', title: 'Update a product', aliases: ['Catalog.update'] })
  // Decorators apply from the bottom up, so RolesGuard runs before the scope guard and a
  // reader still gets the role error over REST; the scope is what the manifest and OAuth read.
  @McpScopes('catalog.write')
  @UseGuards(RolesGuard)
  @Roles('admin')
  update(@Param('id', ParseUUIDPipe) id: string, @Body() changes: UpdateProductDto): Product {
    return this.catalog.updateProduct(id, changes);
  }

  /**
   * Remove a product from the catalog by its id, as DELETE /products/:id does.
   *
   * Needs the admin role (catalog.write scope). This cannot be undone: confirm with the user
   * first. Returns nothing. Fails with Not Found when no product has that id, for example
   * because it was already deleted.
   */
  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @McpTool({ name: 'catalog_delete', title: 'Delete a product (REST)' })
  @McpScopes('catalog.write')
  @UseGuards(RolesGuard)
  @Roles('admin')
  async remove(@Param() params: DeleteProductDto): Promise<void> {
    await this.catalog.deleteProduct(params);
  }
}
