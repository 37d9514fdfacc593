import { IsUUID } from 'class-validator';

/** The arguments of `delete_product` and the path parameters of `DELETE /products/:id`. */
export class DeleteProductDto {
  @IsUUID()
  id!: string;
}
