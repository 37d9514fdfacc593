import 'reflect-metadata';
import { PartialType } from '@nestjs/swagger';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsDate,
  IsDefined,
  IsDivisibleBy,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  Min,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import type { KnownSchemaGapId } from '../../lib/schema/known-schema-gaps.js';
import { readSchemaExactness } from '../../lib/schema/schema-exactness.reader.js';
import { CatalogQueryDto } from '../fixtures/schema-fidelity.fixture.js';

/** As the arguments validator asks: with the gaps reported while the schema was built. */
function exactnessOf(dto: Function) {
  const reported = new Set<KnownSchemaGapId>();
  new DtoSchemaFactory({ onGap: ({ gap }) => reported.add(gap) }).createInputSchema(dto);
  return readSchemaExactness(dto, reported);
}

const reasonOf = (dto: Function) => {
  const exactness = exactnessOf(dto);
  return exactness.exact ? undefined : exactness.reason;
};

enum Level {
  Low = 1,
  High = 2,
}

class AddNumbersDto {
  @IsInt() @Min(0) @Max(1000) a!: number;
  @IsInt() @Min(0) @Max(1000) b!: number;
  @IsString() @Length(1, 64) label!: string;
}

class FlagsDto {
  @IsInt() count!: number;
  @IsEnum(Level) level!: Level;
  @IsOptional() @IsInt() limit = 10;
}

class EmailDto {
  @IsEmail() email!: string;
}

class AddressDto {
  @IsString() street!: string;
  @Matches(/^\d{5}$/) zip!: string;
}

class LooseAddressDto {
  @IsString() street!: string;
  @Matches(/^\d{5}$/i) zip!: string;
}

class ShippingDto {
  @IsDefined() @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
}

class LooseShippingDto {
  @IsDefined() @ValidateNested() @Type(() => LooseAddressDto) address!: LooseAddressDto;
}

class RouteDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => AddressDto) stops!: AddressDto[];
}

class LooseRouteDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => LooseAddressDto) stops!: AddressDto[];
}

/** No @Type(): class-transformer and the schema both follow design:type. */
class PickupDto {
  @IsDefined() @ValidateNested() address!: AddressDto;
}

class CategoryDto {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => CategoryDto) children?: CategoryDto[];
}

function IsEven() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEven',
      target: target.constructor,
      propertyName,
      validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 },
    });
}

class CustomDto {
  @IsInt() @IsEven() value!: number;
}

class ConditionalDto {
  @ValidateIf((dto: { value?: unknown }) => dto.value !== 'skip') @IsInt() value?: number;
}

class GroupedDto {
  @IsString({ groups: ['admin'] }) name!: string;
}

class TrimmedDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 10)
  name!: string;
}

class RenamedDto {
  @Expose({ name: 'full_name' }) @IsString() name!: string;
}

class ExcludedDto {
  @IsString() name!: string;
  @Exclude({ toClassOnly: true }) @IsOptional() @IsString() secret?: string;
}

class NumberConversionDto {
  @Type(() => Number) @IsInt() value!: number;
}

class DateDto {
  @IsDate() @Type(() => Date) when!: Date;
}

class AnimalDto {
  @IsString() name!: string;
}
class DogDto extends AnimalDto {
  @IsString() kind!: string;
}
class KennelDto {
  @IsDefined()
  @ValidateNested()
  @Type(() => AnimalDto, {
    discriminator: { property: 'kind', subTypes: [{ name: 'dog', value: DogDto }] },
    keepDiscriminatorProperty: true,
  })
  pet!: DogDto;
}

let serial = 0;
class TicketDto {
  @IsOptional() @IsInt() number = ++serial;
}

class InheritedRulesDto {
  @IsDivisibleBy(3) step!: number;
  @IsOptional() @ArrayUnique() ids?: number[];
  @IsOptional() @IsUrl() site?: string;
}

class UpdateAddressDto extends PartialType(AddressDto) {}

describe('readSchemaExactness: when class-validator may be skipped', () => {
  describe('the schema says it all', () => {
    it.each([
      ['integers, an enum and a default', FlagsDto, undefined],
      ['a nested DTO whose schema says it all', ShippingDto, undefined],
      ['an array of such DTOs', RouteDto, undefined],
      ['a nested DTO found through design:type', PickupDto, undefined],
      ['a recursive DTO', CategoryDto, undefined],
      ['a PartialType() of such a DTO', UpdateAddressDto, undefined],
      // Its nested CategoryDto has @Length().
      ['the DTO of the schema-fidelity e2e tool', CatalogQueryDto, expect.any(RegExp)],
    ])('%s', (_label, dto, inexactStrings) => {
      expect(exactnessOf(dto)).toStrictEqual({ exact: true, inexactStrings });
    });

    it('except for strings with a presentation selector, where a length rule counts less', () => {
      const exactness = exactnessOf(AddNumbersDto);
      expect(exactness.exact).toBe(true);
      const strings = exactness.exact ? exactness.inexactStrings : undefined;
      expect(strings?.test('\u2764\uFE0F')).toBe(true);
      expect(strings?.test('x\uFE0E')).toBe(true);
      expect(strings?.test('sum 🦊')).toBe(false);
    });

    it('with only gaps where the schema is stricter (a numeric enum, a missing nested DTO)', () => {
      class LooseNestedDto {
        @IsEnum(Level) level!: Level;
        @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
      }
      expect(exactnessOf(LooseNestedDto).exact).toBe(true);
    });
  });

  describe('class-validator still runs', () => {
    it.each([
      ['a rule with a looser schema (@IsEmail())', EmailDto, 'email-format'],
      ['a custom validator', CustomDto, 'custom-validator'],
      ['@ValidateIf()', ConditionalDto, 'conditionalValidation makes rules conditional'],
      ['validation groups', GroupedDto, 'belongs to validation groups'],
      ['a nested DTO with a looser rule', LooseShippingDto, 'matches-flags'],
      ['an array of DTOs with a looser rule', LooseRouteDto, 'matches-flags'],
      ['@Transform()', TrimmedDto, 'class-transformer reshapes the values of TrimmedDto'],
      ['@Expose()', RenamedDto, 'class-transformer reshapes the values of RenamedDto'],
      ['@Exclude()', ExcludedDto, 'class-transformer reshapes the values of ExcludedDto'],
      ['@Type(() => Number)', NumberConversionDto, 'NumberConversionDto.value has @Type()'],
      ['@Type(() => Date)', DateDto, 'DateDto.when has @Type()'],
      ['a @Type() discriminator', KennelDto, 'KennelDto.pet has a @Type() discriminator'],
      ['an initializer that differs per instance', TicketDto, 'TicketDto.number has no fixed'],
      ['@IsDivisibleBy(), @ArrayUnique(), @IsUrl()', InheritedRulesDto, 'multiple-of-precision'],
    ])('%s', (_label, dto, reason) => {
      expect(reasonOf(dto)).toContain(reason);
    });
  });
});
