// The DTOs and the expected wording that several discovery specs share.
import { IsString } from 'class-validator';

export class SearchDto {
  @IsString()
  query!: string;
}

export class FilterDto {
  @IsString()
  category!: string;
}

/** An arguments type with no runtime trace: `design:paramtypes` records `Object`. */
export interface SearchShape {
  query: string;
}

/** The sentence every refused parameter layout ends with. */
export const HOW =
  'A tool method takes its arguments as one class-validator DTO parameter (undecorated, or ' +
  'with @Body()/@Query()), plus parameters with @McpContext(), @Req() or a custom parameter ' +
  'decorator.';
