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

  it('accepts null for an optional property, as the schema says', async () => {
    const result = await validator.validate(TicketDto, { level: 2, address, color: null });
    expect(result.ok).toBe(true);
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
