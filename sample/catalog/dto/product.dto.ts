import { IsArray, IsEnum, IsInt, IsNumber, IsString, IsUUID, Matches, Min } from 'class-validator';
import { ProductCategory, type Product } from '../product.entity.js';

/**
 * A product as `get_product` and `restock_product` return it: their declared output
 * (`@McpTool({ output: ProductDto })`), which the server checks every result against and
 * `nestjs-mcp app-types` turns into the product card's types (sample/views/app-tools.d.ts).
 */
export class ProductDto implements Product {
  /** A UUID, assigned by the catalog. */
  @IsUUID()
  id!: string;

  /** The shop's stock-keeping unit: three capital letters, a dash, four digits (`KIT-4001`). */
  @IsString()
  @Matches(/^[A-Z]{3}-\d{4}$/)
  sku!: string;

  @IsString()
  name!: string;

  @IsString()
  description!: string;

  @IsEnum(ProductCategory)
  category!: ProductCategory;

  /** The unit price in EUR, VAT included. */
  @IsNumber()
  price!: number;

  /** Units on hand. */
  @IsInt()
  @Min(0)
  stock!: number;

  @IsArray()
  @IsString({ each: true })
  tags!: string[];
}
