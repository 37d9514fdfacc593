import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ProductCategory } from '../product.entity.js';

/** The arguments of the `restock_plan` prompt (strings on the wire, typed here). */
export class RestockPlanArgs {
  /** The category to plan for: books, electronics, garden, kitchen or toys. */
  @IsEnum(ProductCategory)
  category!: ProductCategory;

  /** How many weeks the plan covers, 1 to 12 (default 4). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(12)
  weeks?: number;
}
