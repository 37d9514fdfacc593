import { Exclude, Type } from 'class-transformer';
import {
  Allow,
  IsInt,
  IsOptional,
  IsString,
  Min,
  registerDecorator,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { DtoSchemaError } from '../../lib/errors/dto-schema.error.js';
import {
  declaredType,
  excludedFromPlain,
  getDtoProperties,
  resolveNestedTarget,
  validatorNameOf,
} from '../../lib/schema/dto-metadata.reader.js';

/** Each property with the sorted names of its rules (the metadata type of a rule without one). */
const rulesOf = (dto: Function) =>
  getDtoProperties(dto).map(({ name, metadatas }) => [
    name,
    metadatas.map((metadata) => validatorNameOf(metadata) ?? metadata.type).toSorted(),
  ]);

const IsEven = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isEven',
    target: target.constructor,
    propertyName,
    validator: { validate: (value: unknown) => Number(value) % 2 === 0 },
  });

class AddressDto {
  @IsString()
  street!: string;
}

class ParcelDto {
  @IsInt()
  weight!: number;
}

class LetterDto {
  @IsString()
  text!: string;
}

describe('getDtoProperties', () => {
  it('lists the validated properties in declaration order, each with all its rules', () => {
    class SearchDto {
      @IsString()
      query!: string;

      @IsOptional()
      @IsInt()
      @Min(1)
      limit?: number;

      @Allow()
      tag?: string;

      undecorated?: string;
    }
    expect(rulesOf(SearchDto)).toEqual([
      ['query', ['isString']],
      ['limit', ['isInt', 'isOptional', 'min']],
      ['tag', ['whitelistValidation']],
    ]);
  });

  it('puts inherited properties first, then the class’s own', () => {
    class BaseDto {
      @IsString()
      id!: string;
    }
    class ProductDto extends BaseDto {
      @IsString()
      name!: string;
    }
    class DiscountedDto extends ProductDto {
      @IsInt()
      percent!: number;
    }
    expect(getDtoProperties(DiscountedDto).map(({ name }) => name)).toEqual([
      'id',
      'name',
      'percent',
    ]);
  });

  it("keeps a redeclared property's own rules, as class-validator validates them", () => {
    class BaseDto {
      @IsInt()
      count!: number;
    }
    class ChildDto extends BaseDto {
      @Min(1)
      declare count: number;
    }
    expect(rulesOf(ChildDto)).toEqual([['count', ['min']]]);
  });

  it('includes the rules of every validation group, as validate() without groups does', () => {
    class AdminDto {
      @IsString({ groups: ['admin'] })
      secret!: string;
    }
    expect(rulesOf(AdminDto)).toEqual([['secret', ['isString']]]);
  });

  it('finds nothing in a class without class-validator decorators', () => {
    class PlainDto {
      name?: string;
    }
    expect(getDtoProperties(PlainDto)).toEqual([]);
  });
});

describe('validatorNameOf', () => {
  it('names custom validators by their constraint or registerDecorator() name', () => {
    @ValidatorConstraint({ name: 'isSku' })
    class SkuConstraint implements ValidatorConstraintInterface {
      validate() {
        return true;
      }
    }
    class CustomDto {
      @Validate(SkuConstraint)
      sku!: string;

      @IsEven()
      even!: number;
    }
    expect(rulesOf(CustomDto)).toEqual([
      ['sku', ['isSku']],
      ['even', ['isEven']],
    ]);
  });
});

describe('resolveNestedTarget', () => {
  it('takes the class from @Type(), and an array from each or the T[] type', () => {
    class OrderDto {
      @ValidateNested()
      @Type(() => AddressDto)
      shipping!: AddressDto;

      @ValidateNested({ each: true })
      @Type(() => AddressDto)
      stops!: AddressDto[];
    }
    expect(resolveNestedTarget(OrderDto, 'shipping', false)).toEqual({
      type: AddressDto,
      array: false,
      fromDesignType: false,
    });
    expect(resolveNestedTarget(OrderDto, 'stops', false)).toEqual({
      type: AddressDto,
      array: true,
      fromDesignType: false,
    });
    expect(resolveNestedTarget(OrderDto, 'shipping', true).array).toBe(true);
  });

  it('falls back to the recorded type of a single value when @Type() is missing', () => {
    class OrderDto {
      @ValidateNested()
      billing!: AddressDto;
    }
    expect(resolveNestedTarget(OrderDto, 'billing', false)).toEqual({
      type: AddressDto,
      array: false,
      fromDesignType: true,
    });
  });

  it('asks for @Type() when TypeScript records no class, naming what it recorded', () => {
    class OrderDto {
      @ValidateNested({ each: true })
      stops!: AddressDto[];

      @ValidateNested()
      extra!: Record<string, AddressDto>;
    }
    expect(() => resolveNestedTarget(OrderDto, 'stops', true)).toThrow(
      new DtoSchemaError(
        'OrderDto',
        'stops',
        '@ValidateNested() needs the class of the elements, and TypeScript records only Array for it.',
        'Add @Type(() => ItsDto) from class-transformer (the element class).',
      ).message,
    );
    expect(() => resolveNestedTarget(OrderDto, 'extra', false)).toThrow(
      'needs the class of the value, and TypeScript records only Object for it. Add @Type(() => ItsDto) from class-transformer.',
    );
  });

  it('refuses a @Type() function that needs the value to name the class', () => {
    class OrderDto {
      @ValidateNested()
      // Picks the class from the value's own `dto` field, which no value exists to give.
      @Type((options) => (options!.object as { shipping: { dto: Function } }).shipping.dto)
      shipping!: AddressDto;
    }
    expect(() => resolveNestedTarget(OrderDto, 'shipping', false)).toThrow(DtoSchemaError);
    expect(() => resolveNestedTarget(OrderDto, 'shipping', false)).toThrow(
      /OrderDto\.shipping: its @Type\(\) function failed without a value \(.+\)\. Use @Type\(\(\) => SomeDto\)/,
    );
  });

  it('reads the subtypes of a discriminator, and whether the property is kept', () => {
    class MailDto {
      @ValidateNested({ each: true })
      @Type(() => Object, {
        discriminator: {
          property: 'kind',
          subTypes: [
            { name: 'parcel', value: ParcelDto },
            { name: 'letter', value: LetterDto },
          ],
        },
        keepDiscriminatorProperty: true,
      })
      items!: (ParcelDto | LetterDto)[];
    }
    expect(resolveNestedTarget(MailDto, 'items', true)).toEqual({
      type: undefined,
      array: true,
      fromDesignType: false,
      discriminator: {
        property: 'kind',
        subTypes: [
          { name: 'parcel', value: ParcelDto },
          { name: 'letter', value: LetterDto },
        ],
        keep: true,
      },
    });
  });

  it('refuses a discriminator without a property or subtypes', () => {
    class MailDto {
      @ValidateNested()
      @Type(() => Object, { discriminator: { property: 'kind', subTypes: [] } })
      item!: ParcelDto;
    }
    expect(() => resolveNestedTarget(MailDto, 'item', false)).toThrow(
      'Cannot build the JSON Schema of MailDto.item: its @Type() discriminator needs a property name and a non-empty list of subtypes.',
    );
  });
});

describe('declaredType', () => {
  it('names the class of @Type(), and nothing without it or with a discriminator', () => {
    class EventDto {
      @Type(() => Date)
      @IsString()
      at!: Date;

      @IsString()
      plain!: string;

      @Type(() => Object, {
        discriminator: { property: 'kind', subTypes: [{ name: 'letter', value: LetterDto }] },
      })
      @ValidateNested()
      mail!: LetterDto;
    }
    expect(declaredType(EventDto, 'at')).toBe(Date);
    expect(declaredType(EventDto, 'plain')).toBeUndefined();
    expect(declaredType(EventDto, 'mail')).toBeUndefined();
  });
});

describe('excludedFromPlain', () => {
  it('is true for @Exclude() and @Exclude({ toPlainOnly }), false for toClassOnly or none', () => {
    class UserDto {
      @Exclude()
      password!: string;

      @Exclude({ toPlainOnly: true })
      token!: string;

      @Exclude({ toClassOnly: true })
      computed!: string;

      name!: string;
    }
    expect(excludedFromPlain(UserDto, 'password')).toBe(true);
    expect(excludedFromPlain(UserDto, 'token')).toBe(true);
    expect(excludedFromPlain(UserDto, 'computed')).toBe(false);
    expect(excludedFromPlain(UserDto, 'name')).toBe(false);
  });
});
