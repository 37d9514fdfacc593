import { IsInt, IsString, Length, Max, Min } from 'class-validator';

/** The tool every variant serves: `add_numbers({ a, b, label })` → `"label: a+b"`. */
export const ADD_NUMBERS_TOOL = 'add_numbers';
export const ADD_NUMBERS_DESCRIPTION = 'Add two whole numbers between 0 and 1000, with a label.';

/** The class-validator DTO of ours (c). */
export class AddNumbersDto {
  @IsInt()
  @Min(0)
  @Max(1000)
  a!: number;

  @IsInt()
  @Min(0)
  @Max(1000)
  b!: number;

  @IsString()
  @Length(1, 64)
  label!: string;
}

/**
 * The JSON Schema the raw SDK baseline (b) registers through `fromJsonSchema`: what the
 * library derives from `AddNumbersDto` (the run checks that the two list the same schema).
 */
export const ADD_NUMBERS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    a: { type: 'integer', minimum: 0, maximum: 1000 },
    b: { type: 'integer', minimum: 0, maximum: 1000 },
    label: { type: 'string', minLength: 1, maxLength: 64 },
  },
  required: ['a', 'b', 'label'],
  additionalProperties: false,
} as const;

export interface AddNumbersArgs {
  a: number;
  b: number;
  label: string;
}

export const addNumbersText = ({ a, b, label }: AddNumbersArgs): string => `${label}: ${a + b}`;

/** The arguments every load request sends, and the text every variant must answer. */
export const CALL_ARGUMENTS: AddNumbersArgs = { a: 17, b: 25, label: 'sum' };
export const EXPECTED_TEXT = addNumbersText(CALL_ARGUMENTS);
