import {
  IsArray,
  IsEnum,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { ProductCategory } from '../product.entity.js';

/**
 * The body of `PATCH /products/:id` and, with the route's `id`, the arguments of
 * `catalog_update`: the fields to change, each optional. The SKU identifies the product
 * and cannot be changed.
 */
export class UpdateProductDto {
  /** The product's new name, 2 to 120 characters. */
  @IsOptional()
  @IsString()
  @Length(2, 120)
  name?: string;

  /** The new description shown to customers, 10 to 2000 characters. */
  @IsOptional()
  @IsString()
  @Length(10, 2000)
  description?: string;

  /** The department to move the product to. */
  @IsOptional()
  @IsEnum(ProductCategory)
  category?: ProductCategory;

  /** The new unit price in EUR, VAT included. */
  @IsOptional()
  @IsNumber()
  @Min(0.01)
  @Max(100_000)
  price?: number;

  /** The units now on hand, after a count or a delivery. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  stock?: number;

  /** The tags that replace the current ones (send `[]` to remove them all). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Length(1, 30, { each: true })
  tags?: string[];
}
