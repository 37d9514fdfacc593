import { IsEnum, IsInt, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { ProductCategory } from '../product.entity.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

/** The arguments of `search_products` and the query of `GET /products`. Every field is optional. */
export class SearchProductsDto {
  /** Words to look for in the name, description, SKU and tags; every word must match. */
  @IsOptional()
  @IsString()
  @Length(1, 100)
  query?: string;

  @IsOptional()
  @IsEnum(ProductCategory)
  category?: ProductCategory;

  /** The lowest price in EUR, inclusive. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  minPrice?: number;

  /** The highest price in EUR, inclusive. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  maxPrice?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_LIMIT)
  limit?: number = DEFAULT_SEARCH_LIMIT;
}
