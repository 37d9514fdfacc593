import {
  IsArray,
  IsEnum,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { ProductCategory } from '../product.entity.js';

/** The arguments of `create_product` and the body of `POST /products`. */
export class CreateProductDto {
  @IsString()
  @Matches(/^[A-Z]{3}-\d{4}$/, {
    message: 'sku must be three capital letters, a dash and four digits, like KIT-4001',
  })
  sku!: string;

  @IsString()
  @Length(2, 120)
  name!: string;

  @IsString()
  @Length(10, 2000)
  description!: string;

  @IsEnum(ProductCategory)
  category!: ProductCategory;

  /** The unit price in EUR, VAT included. */
  @IsNumber()
  @Min(0.01)
  @Max(100_000)
  price!: number;

  /** Units on hand. */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  stock!: number;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Length(1, 30, { each: true })
  tags?: string[];
}
