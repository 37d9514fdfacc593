import { ValidationTypes } from 'class-validator';
import { DtoSchemaError } from '../errors/dto-schema.error.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { McpArgumentOptions } from '../interfaces/mcp-tool-options.interface.js';
import { unknownArgumentOptionMessage } from '../messages/schema.messages.js';
import type { ConstraintGap } from './constraint-converter.interface.js';
import {
  declaredType,
  excludedFromPlain,
  getDtoProperties,
  resolveNestedTarget,
  validatorNameOf,
  type DtoProperty,
  type NestedDiscriminator,
  type NestedTarget,
  type ValidationMetadata,
} from './dto-metadata.reader.js';
import {
  assertDefaultsFit,
  readInitializerDefaults,
  type DefaultToCheck,
  type InitializerDefault,
} from './initializer-defaults.reader.js';
import type { KnownSchemaGapId } from './known-schema-gaps.js';
import {
  argumentAnnotations,
  readApiPropertyAnnotations,
  type PropertyAnnotations,
} from './property-annotations.reader.js';
import { allowNull, mergeSchemaParts, type SchemaPart } from './schema-keywords.merger.js';
import { VALIDATION_CONSTRAINT_CONVERTERS } from './validation-constraint.converters.js';
import { setOwn } from '../utils/own-property.util.js';

/** A rule the schema could not express exactly, found while building one property. */
export interface SchemaGapNotice {
  /** Its entry in `KNOWN_SCHEMA_GAPS`, which explains the gap in general. */
  readonly gap: KnownSchemaGapId;
  readonly dtoName: string;
  readonly propertyName: string;
  /** What happened for this property, naming the decorator. */
  readonly detail: string;
}

/** How one build lists what it meets. */
export interface DtoSchemaBuildOptions {
  readonly onGap?: (notice: SchemaGapNotice) => void;
  /** `@IsOptional()` properties accept `null` (type lists, `anyOf` with a null branch). */
  readonly nullableOptionals: boolean;
}

/** Validators that pass `undefined`, so that a missing property satisfies them. */
const ACCEPTS_MISSING = new Set(['isNotIn']);

/** Where `$defs` keeps the root object while defaults are checked (never published). */
const ROOT_DEF_KEY = '@root';

/**
 * The state of one schema build: the `$defs` built or being built. One instance
 * per schema, so that a class met by a later schema cannot leak into an earlier one.
 */
export class DtoSchemaBuilder {
  // A class gets its key before its schema is built, so a class that refers to itself
  // (directly or through others) finds the key instead of recursing: the pending set.
  private readonly defKeys = new Map<Function, string>();
  private readonly variantKeys = new Map<Function, Map<string, string>>();
  private readonly defs: Record<string, JsonSchema> = {};
  private readonly defaultsToCheck: DefaultToCheck[] = [];

  constructor(
    private readonly mode: 'input' | 'output',
    private readonly options: DtoSchemaBuildOptions,
  ) {}

  input(dto: Function, args: Readonly<Record<string, string | McpArgumentOptions>>): JsonSchema {
    const schema = this.objectSchema(dto, args);
    for (const name of Object.keys(args)) {
      if (!Object.hasOwn(schema.properties ?? {}, name)) {
        throw new McpConfigurationError(
          unknownArgumentOptionMessage(name, dto.name, Object.keys(schema.properties ?? {})),
        );
      }
    }
    const root = this.withDefs(schema);
    // The root object goes into `$defs` too, so one `$ref` reaches any property.
    const { $defs: _ignored, ...rootObject } = root;
    assertDefaultsFit(this.defaultsToCheck, { ...this.defs, [ROOT_DEF_KEY]: rootObject }, (of) =>
      of === dto ? ROOT_DEF_KEY : this.defKeys.get(of),
    );
    return root;
  }

  /** The schema of a result: the DTO's object, or a list of them (`[Dto]`). */
  output(dto: Function, list: boolean): JsonSchema {
    if (list) return this.withDefs({ type: 'array', items: { $ref: this.refTo(dto, dto, '[]') } });
    return this.withDefs(this.objectSchema(dto, {}));
  }

  private withDefs(schema: JsonSchema): JsonSchema {
    return Object.keys(this.defs).length > 0 ? { ...schema, $defs: this.defs } : schema;
  }

  private objectSchema(
    dto: Function,
    overrides: Readonly<Record<string, string | McpArgumentOptions>>,
  ): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const dtoProperties = getDtoProperties(dto);
    const defaults =
      this.mode === 'input'
        ? readInitializerDefaults(dto, dtoProperties)
        : new Map<string, InitializerDefault>();
    const published = new Map<string, unknown>();
    for (const property of dtoProperties) {
      if (this.mode === 'output' && excludedFromPlain(dto, property.name)) continue;
      const built = this.propertySchema(dto, property);
      const initial = defaults.get(property.name);
      // `= null` on an @IsOptional() property means "no value". Listed without null, the
      // property cannot have null as its `default`; left out, it still starts as null.
      const json =
        built.nullable && !this.options.nullableOptionals && initial?.json === null
          ? undefined
          : initial?.json;
      published.set(property.name, json);
      const annotations: PropertyAnnotations = {
        ...readApiPropertyAnnotations(dto, property.name),
        ...argumentAnnotations(
          Object.hasOwn(overrides, property.name) ? overrides[property.name] : undefined,
        ),
      };
      const { description, ...more } = annotations;
      setOwn(properties, property.name, {
        ...(description !== undefined && { description }),
        ...built.schema,
        ...(json !== undefined && { default: json }),
        ...more,
      });
      // class-transformer keeps the initializer when the argument is left out, so a
      // property with a default is never missing by the time class-validator runs.
      if (built.required && !initial) required.push(property.name);
    }
    for (const property of defaults.keys()) {
      this.defaultsToCheck.push({ dto, property, value: published.get(property) });
    }
    return {
      type: 'object',
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
    };
  }

  private refTo(dto: Function, from: Function, property: string): string {
    let key = this.defKeys.get(dto);
    if (key === undefined) {
      this.assertHasRules(dto, from, property);
      key = this.uniqueKey(dto);
      this.defKeys.set(dto, key);
      // Reserve the slot so `$defs` lists classes in the order they are first met.
      this.defs[key] = {};
      this.defs[key] = this.objectSchema(dto, {});
    }
    return `#/$defs/${key}`;
  }

  /**
   * A subtype of a `@Type()` discriminator, as a definition of its own: the class's object
   * with the discriminator property fixed to the subtype's name, which is how the value
   * picks it (and how `instanceToPlain()` writes it).
   */
  private variantRef(
    discriminator: NestedDiscriminator,
    subType: NestedDiscriminator['subTypes'][number],
    from: Function,
    property: string,
  ): string {
    const byName = this.variantKeys.get(subType.value) ?? new Map<string, string>();
    this.variantKeys.set(subType.value, byName);
    const id = `${discriminator.property}\u0000${subType.name}`;
    let key = byName.get(id);
    if (key === undefined) {
      this.assertHasRules(subType.value, from, property);
      key = this.uniqueKey(subType.value);
      byName.set(id, key);
      this.defs[key] = {};
      const schema = this.objectSchema(subType.value, {});
      const { [discriminator.property]: declared, ...others } = schema.properties ?? {};
      if (this.mode === 'input' && discriminator.keep && !declared) {
        throw new DtoSchemaError(
          subType.value.name,
          discriminator.property,
          'the @Type() discriminator keeps this property on the instance ' +
            '(keepDiscriminatorProperty), but the class does not declare it, so the whitelist ' +
            'rejects every value.',
          `Declare it, e.g. @Equals('${subType.name}') ${discriminator.property}!: string.`,
        );
      }
      const fixedName: JsonSchema = { ...declared, type: 'string', const: subType.name };
      this.defs[key] = {
        ...schema,
        properties: { [discriminator.property]: fixedName, ...others },
        required: [
          discriminator.property,
          ...(schema.required ?? []).filter((name) => name !== discriminator.property),
        ],
      };
    }
    return `#/$defs/${key}`;
  }

  private assertHasRules(dto: Function, from: Function, property: string): void {
    if (getDtoProperties(dto).length > 0) return;
    throw new DtoSchemaError(
      from.name,
      property,
      this.mode === 'input'
        ? `${dto.name || 'its nested class'} has no class-validator decorators, so ` +
            'class-validator rejects every value of it as "an unknown value".'
        : `${dto.name || 'its nested class'} has no class-validator decorators, so its ` +
            'schema would allow no property.',
      `Decorate the properties of ${dto.name || 'that class'} (@IsString(), @Allow(), ...), ` +
        'or point @Type() at the right class.',
    );
  }

  private uniqueKey(dto: Function): string {
    const base = dto.name || 'Anonymous';
    let key = base;
    for (let n = 2; Object.hasOwn(this.defs, key) || key === ROOT_DEF_KEY; n++)
      key = `${base}_${n}`;
    return key;
  }

  /**
   * The schema of one property. `nullable` says that `@IsOptional()` lets null through
   * for class-validator; the schema carries it only with `nullableOptionals`.
   */
  private propertySchema(
    dto: Function,
    { name, metadatas }: DtoProperty,
  ): { schema: JsonSchema; required: boolean; nullable: boolean } {
    const report = (gap: ConstraintGap) =>
      this.options.onGap?.({
        gap: gap.gap,
        dtoName: dto.name,
        propertyName: name,
        detail: gap.detail,
      });
    const rules = this.readRules(dto, name, metadatas, report);
    const { valueParts, itemParts, optional, nullable, nested } = rules;

    // Only `@Allow()` is not a rule on the value: it just lets the property through.
    const required =
      !optional && metadatas.some((metadata) => metadata.type !== ValidationTypes.WHITELIST);
    if (required && !this.checksPresence(metadatas)) {
      report({
        gap: 'missing-value',
        detail: `a missing value passes ${nested ? '@ValidateNested()' : 'its rules'}; add @IsDefined() or @IsOptional()`,
      });
    }

    let array = itemParts.length > 0;
    if (nested) {
      const target = resolveNestedTarget(dto, name, nested.each ?? false);
      (target.array ? itemParts : valueParts).unshift({
        schema: this.nestedReference(target, dto, name),
        decorator: 'ValidateNested',
      });
      array ||= target.array;
    }

    const schema: JsonSchema = array
      ? {
          ...mergeSchemaParts(dto, name, [
            { schema: { type: 'array' }, decorator: 'each: true' },
            ...valueParts,
          ]),
          items: mergeSchemaParts(dto, name, itemParts),
        }
      : mergeSchemaParts(dto, name, valueParts);
    const listed = nullable && this.options.nullableOptionals ? allowNull(schema) : schema;
    return { schema: listed, required, nullable };
  }

  /**
   * The rules of one property as schema parts, for the value or for each item (`each: true`),
   * with whether it may be left out or null, and its `@ValidateNested()` rule.
   */
  private readRules(
    dto: Function,
    name: string,
    metadatas: readonly ValidationMetadata[],
    report: (gap: ConstraintGap) => void,
  ) {
    const valueParts: SchemaPart[] = [];
    const itemParts: SchemaPart[] = [];
    let optional = false;
    let nullable = false;
    let nested: ValidationMetadata | undefined;
    for (const metadata of metadatas) {
      const parts = metadata.each ? itemParts : valueParts;
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        optional = true;
        // @IsOptional() skips every rule for null as well as for a missing value;
        // @ValidateIf() depends on its condition, which the schema cannot state.
        if (metadata.name === 'isOptional') nullable = true;
        else {
          report({ gap: 'validate-if', detail: '@ValidateIf() makes its rules conditional' });
        }
      } else if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
        nested = nested?.each ? nested : metadata;
      } else if (metadata.type === ValidationTypes.IS_DEFINED) {
        parts.push({ schema: { not: { const: null } }, decorator: 'IsDefined' });
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        const part = this.customValidatorPart(dto, name, metadata, report);
        if (part) parts.push(part);
      }
    }
    return { valueParts, itemParts, optional, nullable, nested };
  }

  /** The part of a custom-validation rule, or none when no converter knows its validator. */
  private customValidatorPart(
    dto: Function,
    name: string,
    metadata: ValidationMetadata,
    report: (gap: ConstraintGap) => void,
  ): SchemaPart | undefined {
    const validator = validatorNameOf(metadata) ?? 'a custom validator';
    // A custom validator may be named like an Object.prototype member ("toString").
    const converter = Object.hasOwn(VALIDATION_CONSTRAINT_CONVERTERS, validator)
      ? VALIDATION_CONSTRAINT_CONVERTERS[validator]
      : undefined;
    if (!converter) {
      report({ gap: 'custom-validator', detail: `${validator} is enforced at call time only` });
      return undefined;
    }
    const conversion = converter.convert(metadata.constraints ?? []);
    if (conversion.refusal) {
      throw new DtoSchemaError(dto.name, name, conversion.refusal.problem, conversion.refusal.fix);
    }
    if (validator === 'isDate') this.assertDateConversion(dto, name);
    conversion.gaps?.forEach(report);
    if (metadata.validateIf) {
      report({ gap: 'validate-if', detail: `@${converter.decorator}() has a validateIf option` });
    }
    // Converters may share their schema objects; the merge must never alter them.
    return { schema: structuredClone(conversion.schema), decorator: converter.decorator };
  }

  /** Where `@ValidateNested()` points: one class, or one of the subtypes a discriminator names. */
  private nestedReference(target: NestedTarget, dto: Function, name: string): JsonSchema {
    const { discriminator } = target;
    if (!discriminator) return { $ref: this.refTo(target.type as Function, dto, name) };
    return {
      oneOf: discriminator.subTypes.map((subType) => ({
        $ref: this.variantRef(discriminator, subType, dto, name),
      })),
    };
  }

  /** `@IsDate()` passes only Date instances, which JSON cannot carry without `@Type()`. */
  private assertDateConversion(dto: Function, property: string): void {
    if (this.mode === 'output' || declaredType(dto, property) === Date) return;
    throw new DtoSchemaError(
      dto.name,
      property,
      '@IsDate() accepts only Date instances, and a JSON argument is at most a date string.',
      'Add @Type(() => Date) from class-transformer, so the string becomes a Date first.',
    );
  }

  /**
   * Whether some rule rejects a missing value, as the schema's `required` does. Custom
   * validators are assumed to (most check the type first); @IsNotIn() does not.
   */
  private checksPresence(metadatas: readonly ValidationMetadata[]): boolean {
    return metadatas.some(
      (metadata) =>
        metadata.type === ValidationTypes.IS_DEFINED ||
        (metadata.type === ValidationTypes.CUSTOM_VALIDATION &&
          !ACCEPTS_MISSING.has(validatorNameOf(metadata) ?? 'a custom validator')),
    );
  }
}
