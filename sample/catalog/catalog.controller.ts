import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { BearerTokenGuard } from '../auth/bearer-token.guard.js';
import { Roles } from '../auth/roles.decorator.js';
import { RolesGuard } from '../auth/roles.guard.js';
import { CatalogService } from './catalog.service.js';
import { CreateProductDto } from './dto/create-product.dto.js';
import { DeleteProductDto } from './dto/delete-product.dto.js';
import { GetProductDto } from './dto/get-product.dto.js';
import { SearchProductsDto } from './dto/search-products.dto.js';
import type { Product, ProductPage } from './product.entity.js';

/** The catalog's REST API, which the app had before MCP. It uses the same service as the tools. */
@Controller('products')
@UseGuards(BearerTokenGuard)
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  search(@Query() query: SearchProductsDto): ProductPage {
    return this.catalog.searchProducts(query);
  }

  @Get(':id')
  findOne(@Param() params: GetProductDto): Product {
    return this.catalog.getProduct(params);
  }

  @Post()
  @UseGuards(RolesGuard)
  @Roles('admin')
  create(@Body() input: CreateProductDto): Product {
    return this.catalog.createProduct(input);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @UseGuards(RolesGuard)
  @Roles('admin')
  remove(@Param() params: DeleteProductDto): void {
    this.catalog.deleteProduct(params);
  }
}
