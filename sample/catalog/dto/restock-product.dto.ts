import { IsInt, IsUUID, Max, Min } from 'class-validator';

/** The arguments of `restock_product`, which the product card's "Restock" button sends. */
export class RestockProductDto {
  /** The id of the product to restock (a UUID). */
  @IsUUID()
  id!: string;

  /** How many units arrived, added to the stock. */
  @IsInt()
  @Min(1)
  @Max(1000)
  quantity!: number;
}
