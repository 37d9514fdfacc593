import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import {
  DtoArgumentsValidator,
  formatIssues,
} from '../../lib/validation/dto-arguments.validator.js';
import type { ArgumentIssue } from '../../lib/interfaces/argument-issue.interface.js';
import { toolErrorToResult } from '../../lib/execution/tool-error.mapper.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { compileJsonSchema } from '../../lib/schema/json-schema.check.js';

enum Level {
  Low = 1,
  High = 2,
}
enum Color {
  Red = 'red',
  Blue = 'blue',
}

class AddressDto {
  @IsString() street!: string;
}

class TicketDto {
  @IsEnum(Level) level!: Level;
  @IsOptional() @IsEnum(Color) color?: Color;
  @IsOptional() @IsIn(['asc', 'desc'], { message: 'sort is asc or desc' }) sort?: string;
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @IsInt() @Min(1) limit = 10;
}

class AnimalDto {
  @IsString() name!: string;
}
class DogDto extends AnimalDto {
  @IsBoolean() barks!: boolean;
}
class KennelDto {
  @IsDefined()
  @ValidateNested()
  @Type(() => AnimalDto, {
    discriminator: { property: 'kind', subTypes: [{ name: 'dog', value: DogDto }] },
  })
  pet!: DogDto;
}

const validator = new DtoArgumentsValidator();
const address = { street: '1 Main St' };

async function issuesOf(dto: new () => object, args: unknown): Promise<ArgumentIssue[]> {
  const result = await validator.validate(dto, args);
  if (result.ok) throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
  return result.issues;
}

describe('DtoArgumentsValidator: the schema is enforced too', () => {
  it('rejects the name of a numeric enum member, which class-validator alone accepts', async () => {
    expect(await issuesOf(TicketDto, { level: 'Low', address })).toStrictEqual([
      { path: '/level', constraint: 'enum', message: 'level must be one of 1, 2', allowed: [1, 2] },
    ]);
  });

  it('requires a nested DTO without @IsDefined(), as the schema lists it', async () => {
    expect(await issuesOf(TicketDto, { level: 1 })).toStrictEqual([
      { path: '/address', constraint: 'required', message: 'address is required' },
    ]);
  });

  it('gives the method the default of a property left out, and the value when given', async () => {
    const left = await validator.validate(TicketDto, { level: 1, address });
    expect(left.ok && left.value.limit).toBe(10);
    const given = await validator.validate(TicketDto, { level: 1, address, limit: 3 });
    expect(given.ok && given.value.limit).toBe(3);
    expect(await issuesOf(TicketDto, { level: 1, address, limit: 0 })).toStrictEqual([
      { path: '/limit', constraint: 'min', message: 'limit must not be less than 1' },
    ]);
  });

  it('accepts null for an optional property where the schema lists it (nullableOptionals)', async () => {
    const nullable = compileJsonSchema(
      new DtoSchemaFactory().createInputSchema(TicketDto, { nullableOptionals: true }),
      'the arguments',
    );
    const result = await validator.validate(
      TicketDto,
      { level: 2, address, color: null, limit: null },
      nullable,
    );
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toMatchObject({ color: null, limit: null });
  });

  it('refuses null for an optional property listed without it (the default), saying what to do', async () => {
    const issues = await issuesOf(TicketDto, { level: 2, address, color: null, limit: null });
    expect(issues).toStrictEqual([
      {
        path: '/color',
        constraint: 'type',
        message: 'color cannot be null: it is optional, so leave it out instead of sending null',
      },
      {
        path: '/limit',
        constraint: 'type',
        message: 'limit cannot be null: it is optional, so leave it out instead of sending null',
      },
    ]);
    expect(formatIssues(issues)).toBe(
      'Invalid arguments:\n' +
        '- /color: color cannot be null: it is optional, so leave it out instead of sending null\n' +
        '- /limit: limit cannot be null: it is optional, so leave it out instead of sending null',
    );
    // Left out, the property gets no value, or its initializer.
    const left = await validator.validate(TicketDto, { level: 2, address });
    expect(left.ok && left.value).toMatchObject({ limit: 10 });
    expect(left.ok && 'color' in left.value).toBe(false);
  });

  it('refuses null for an optional nested DTO and in a nested DTO by default', async () => {
    class NoteDto {
      @IsString() text!: string;
      @IsOptional() @IsString() author?: string;
    }
    class MemoDto {
      @IsOptional() @ValidateNested() @Type(() => NoteDto) note?: NoteDto;
    }
    expect(await issuesOf(MemoDto, { note: null })).toStrictEqual([
      {
        path: '/note',
        constraint: 'type',
        message: 'note cannot be null: it is optional, so leave it out instead of sending null',
      },
    ]);
    expect(await issuesOf(MemoDto, { note: { text: 'x', author: null } })).toStrictEqual([
      {
        path: '/note/author',
        constraint: 'type',
        message: 'author cannot be null: it is optional, so leave it out instead of sending null',
      },
    ]);
  });

  it('does not edit the arguments a discriminator reads', async () => {
    const args = { pet: { kind: 'dog', name: 'Rex', barks: true } };
    const result = await validator.validate(KennelDto, args);
    expect(result.ok && result.value.pet).toBeInstanceOf(DogDto);
    expect(args.pet.kind).toBe('dog');
  });

  it('names the subtypes a discriminator allows', async () => {
    expect(await issuesOf(KennelDto, { pet: { kind: 'cat', name: 'Tom' } })).toContainEqual({
      path: '/pet/kind',
      constraint: 'const',
      message: 'kind must be "dog"',
      allowed: ['dog'],
    });
  });
});

describe('DtoArgumentsValidator: allowed values', () => {
  it('lists the values of @IsEnum() and @IsIn() as JSON, so that types are visible', async () => {
    expect(await issuesOf(TicketDto, { level: 3, address, color: 'green' })).toStrictEqual([
      {
        path: '/level',
        constraint: 'isEnum',
        message: 'level must be one of 1, 2',
        allowed: [1, 2],
      },
      {
        path: '/color',
        constraint: 'isEnum',
        message: 'color must be one of "red", "blue"',
        allowed: ['red', 'blue'],
      },
    ]);
  });

  it('keeps a message the DTO wrote, and still gives the list', async () => {
    expect(await issuesOf(TicketDto, { level: 1, address, sort: 'up' })).toStrictEqual([
      {
        path: '/sort',
        constraint: 'isIn',
        message: 'sort is asc or desc',
        allowed: ['asc', 'desc'],
      },
    ]);
  });
});

describe('formatIssues with allowed values', () => {
  it('adds the list when the message does not show it', () => {
    expect(
      formatIssues([
        {
          path: '/sort',
          constraint: 'isIn',
          message: 'sort is asc or desc',
          allowed: ['asc', 'desc'],
        },
        {
          path: '/level',
          constraint: 'isEnum',
          message: 'level must be one of 1, 2',
          allowed: [1, 2],
        },
      ]),
    ).toBe(
      'Invalid arguments:\n' +
        '- /sort: sort is asc or desc (allowed: "asc", "desc")\n' +
        '- /level: level must be one of 1, 2',
    );
  });
});

describe('toolErrorToResult with allowed values', () => {
  it('puts the allowed values in the text and in the structured issues', () => {
    const issues = [
      {
        path: '/sort',
        constraint: 'isIn',
        message: 'sort is asc or desc',
        allowed: ['asc', 'desc'],
      },
    ];
    const result = toolErrorToResult(new InvalidArgumentsError('search', issues), () => 'x');
    expect(result).toStrictEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments:\n- /sort: sort is asc or desc (allowed: "asc", "desc")',
        },
      ],
      structuredContent: { error: 'invalid_arguments', issues },
      isError: true,
    });
  });
});
