import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

// The arguments and results of the differential test's app (fixture.ts).

export class AddArgs {
  @IsInt()
  @Min(0)
  @Max(1000)
  a!: number;

  @IsInt()
  @Min(0)
  @Max(1000)
  b!: number;
}

export class NoteArgs {
  @IsString()
  @Length(1, 20)
  text!: string;
}

export class EchoArgs {
  /** What to echo back. */
  @IsString()
  message!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => NoteArgs)
  note?: NoteArgs;
}

export class ItemArgs {
  @IsInt()
  @Min(1)
  id!: number;
}

/** The declared result of `describe_item` (an output schema of an object). */
export class ItemOut {
  @IsInt()
  id!: number;

  @IsString()
  name!: string;

  @IsBoolean()
  inStock!: boolean;
}

export class SummarizeArgs {
  @IsIn(['books', 'bikes', 'games'])
  category!: string;

  @IsOptional()
  @IsString()
  topic?: string;
}

export class ResourceItemParams {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id!: number;
}
