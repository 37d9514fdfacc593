import { Type } from 'class-transformer';
import {
  Equals,
  IsDate,
  IsDefined,
  IsInt,
  IsNotIn,
  IsString,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { DtoSchemaError } from '../../lib/errors/dto-schema.error.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { DtoSchemaBuilder, type SchemaGapNotice } from '../../lib/schema/dto-schema.builder.js';

// The factory's specs (dto-schema.factory.spec.ts, dto-schema.fidelity.spec.ts) cover what
// each decorator becomes; these cover what one build itself decides: its two modes, the keys
// of $defs, and property names that are also names of Object.prototype members.

/** One build, as the factory runs it, with the gaps it reports. */
function build(
  mode: 'input' | 'output',
  run: (builder: DtoSchemaBuilder) => JsonSchema,
): { schema: JsonSchema; notices: SchemaGapNotice[] } {
  const notices: SchemaGapNotice[] = [];
  const builder = new DtoSchemaBuilder(mode, {
    onGap: (notice) => notices.push(notice),
    nullableOptionals: false,
  });
  return { schema: run(builder), notices };
}

const input = (dto: Function, args: Record<string, string> = {}) =>
  build('input', (builder) => builder.input(dto, args));
const output = (dto: Function, list = false) =>
  build('output', (builder) => builder.output(dto, list));

class ParcelDto {
  @IsInt()
  weight!: number;
}

describe('DtoSchemaBuilder: input and output', () => {
  it('refuses @IsDate() without @Type(() => Date) in arguments, but not in a result', () => {
    class EventDto {
      @IsDate()
      at!: Date;
    }
    expect(() => input(EventDto)).toThrow(
      new DtoSchemaError(
        'EventDto',
        'at',
        '@IsDate() accepts only Date instances, and a JSON argument is at most a date string.',
        'Add @Type(() => Date) from class-transformer, so the string becomes a Date first.',
      ).message,
    );
    expect(output(EventDto).schema.properties?.at).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
  });

  it('publishes an initializer as the default of an argument, and not in a result', () => {
    class PageDto {
      @IsInt()
      size: number = 20;
    }
    expect(input(PageDto).schema).toEqual({
      type: 'object',
      properties: { size: { type: 'integer', default: 20 } },
      additionalProperties: false,
    });
    expect(output(PageDto).schema).toEqual({
      type: 'object',
      properties: { size: { type: 'integer' } },
      required: ['size'],
      additionalProperties: false,
    });
  });

  it('says why a nested class without rules cannot be used, in the words of each mode', () => {
    class Untyped {
      label!: string;
    }
    class HolderDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => Untyped)
      value!: Untyped;
    }
    expect(() => input(HolderDto)).toThrow(
      'Cannot build the JSON Schema of HolderDto.value: Untyped has no class-validator ' +
        'decorators, so class-validator rejects every value of it as "an unknown value". ' +
        'Decorate the properties of Untyped (@IsString(), @Allow(), ...), or point @Type() at ' +
        'the right class.',
    );
    expect(() => output(HolderDto)).toThrow(
      'HolderDto.value: Untyped has no class-validator decorators, so its schema would allow ' +
        'no property.',
    );
  });

  it('lists a list result as an array of references to the class', () => {
    expect(output(ParcelDto, true).schema).toEqual({
      type: 'array',
      items: { $ref: '#/$defs/ParcelDto' },
      $defs: {
        ParcelDto: {
          type: 'object',
          properties: { weight: { type: 'integer' } },
          required: ['weight'],
          additionalProperties: false,
        },
      },
    });
  });

  it('refuses an "arguments" key of a class without properties, saying it has none', () => {
    class EmptyDto {}
    const building = () => input(EmptyDto, { query: 'What to look for.' });
    expect(building).toThrow(McpConfigurationError);
    expect(building).toThrow(
      'The "arguments" option names "query", which is not a property of EmptyDto. Its properties: (none).',
    );
  });
});

describe('DtoSchemaBuilder: $defs', () => {
  it('keys an anonymous class as Anonymous, and names it plainly when it has no rules', () => {
    // Decorators in a class expression are not applied by the test transform: by hand.
    const anonymous = (() => class {})();
    IsString()(anonymous.prototype, 'street');
    const bare = (() => class {})();
    class WithAnonymousDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => anonymous)
      address!: object;
    }
    class WithBareDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => bare)
      address!: object;
    }
    const { schema } = input(WithAnonymousDto);
    expect(schema.properties?.address).toEqual({ $ref: '#/$defs/Anonymous' });
    expect(Object.keys(schema.$defs ?? {})).toEqual(['Anonymous']);
    expect(() => input(WithBareDto)).toThrow(
      'WithBareDto.address: its nested class has no class-validator decorators, so ' +
        'class-validator rejects every value of it as "an unknown value". Decorate the ' +
        'properties of that class',
    );
  });

  it('defines a class used both as itself and as a discriminator subtype twice, once each', () => {
    const discriminator = { property: 'kind', subTypes: [{ name: 'parcel', value: ParcelDto }] };
    class ShipmentDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => ParcelDto)
      main!: ParcelDto;

      @IsDefined()
      @ValidateNested()
      @Type(() => Object, { discriminator })
      extra!: ParcelDto;

      @IsDefined()
      @ValidateNested()
      @Type(() => Object, { discriminator })
      spare!: ParcelDto;
    }
    const { schema } = input(ShipmentDto);
    expect(schema.properties).toEqual({
      main: { $ref: '#/$defs/ParcelDto' },
      extra: { oneOf: [{ $ref: '#/$defs/ParcelDto_2' }] },
      spare: { oneOf: [{ $ref: '#/$defs/ParcelDto_2' }] },
    });
    expect(schema.$defs).toEqual({
      ParcelDto: {
        type: 'object',
        properties: { weight: { type: 'integer' } },
        required: ['weight'],
        additionalProperties: false,
      },
      ParcelDto_2: {
        type: 'object',
        properties: { kind: { type: 'string', const: 'parcel' }, weight: { type: 'integer' } },
        required: ['kind', 'weight'],
        additionalProperties: false,
      },
    });
  });

  it('fixes a declared discriminator property to the subtype name, keeping its other keywords', () => {
    class LetterDto {
      @IsString()
      text!: string;

      @Equals('letter')
      kind!: string;
    }
    class MailDto {
      @IsDefined()
      @ValidateNested()
      @Type(() => Object, {
        discriminator: { property: 'kind', subTypes: [{ name: 'letter', value: LetterDto }] },
        keepDiscriminatorProperty: true,
      })
      item!: LetterDto;
    }
    const letter = input(MailDto).schema.$defs?.LetterDto;
    expect(letter?.properties).toEqual({
      kind: { type: 'string', const: 'letter' },
      text: { type: 'string' },
    });
    expect(letter?.required).toEqual(['kind', 'text']);
  });
});

describe('DtoSchemaBuilder: properties and validators named like Object.prototype members', () => {
  it('keeps a property named __proto__ as a property, never as the prototype', () => {
    class HostileDto {}
    IsString()(HostileDto.prototype, '__proto__');
    IsInt()(HostileDto.prototype, 'constructor');
    const { schema } = input(HostileDto);
    expect(Object.hasOwn(schema.properties ?? {}, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: 'object',
      properties: JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}'),
      required: ['__proto__', 'constructor'],
      additionalProperties: false,
    });
  });

  it('reports a custom validator named toString as one without a converter', () => {
    class SkuDto {}
    registerDecorator({
      name: 'toString',
      target: SkuDto,
      propertyName: 'sku',
      validator: { validate: () => true },
    });
    const { schema, notices } = input(SkuDto);
    expect(schema.properties).toEqual({ sku: {} });
    expect(notices).toEqual([
      {
        gap: 'custom-validator',
        dtoName: 'SkuDto',
        propertyName: 'sku',
        detail: 'toString is enforced at call time only',
      },
    ]);
  });
});

describe('DtoSchemaBuilder: gaps', () => {
  it('says which rule lets a missing value through', () => {
    class FilterDto {
      @IsNotIn(['draft'])
      status!: string;

      @ValidateNested()
      @Type(() => ParcelDto)
      parcel!: ParcelDto;
    }
    const { schema, notices } = input(FilterDto);
    expect(schema.required).toEqual(['status', 'parcel']);
    expect(notices.map(({ propertyName, detail }) => [propertyName, detail])).toEqual([
      ['status', 'a missing value passes its rules; add @IsDefined() or @IsOptional()'],
      ['parcel', 'a missing value passes @ValidateNested(); add @IsDefined() or @IsOptional()'],
    ]);
  });

  it('reports a rule with a validateIf option, which the schema applies always', () => {
    class NoteDto {
      @IsString({ validateIf: (note: { kind?: string }) => note.kind === 'text' })
      body!: string;
    }
    const { schema, notices } = input(NoteDto);
    expect(schema.properties?.body).toEqual({ type: 'string' });
    expect(notices).toEqual([
      {
        gap: 'validate-if',
        dtoName: 'NoteDto',
        propertyName: 'body',
        detail: '@IsString() has a validateIf option',
      },
    ]);
  });
});
