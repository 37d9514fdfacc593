import { IsUUID } from 'class-validator';

/** The arguments of `get_product` and the path parameters of `GET /products/:id`. */
export class GetProductDto {
  @IsUUID()
  id!: string;
}
