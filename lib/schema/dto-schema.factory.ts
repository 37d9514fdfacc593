import { getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { createRequire } from 'node:module';
import { DtoSchemaError } from '../errors/dto-schema.error.js';
import type { JsonSchema, JsonSchemaTypeName } from './json-schema.interface.js';
import {
  VALIDATION_CONSTRAINT_CONVERTERS,
  type ConstraintGap,
  type KnownSchemaGapId,
} from './validation-constraint.converters.js';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** A rule the schema could not express exactly, found while building one property. */
export interface SchemaGapNotice {
  /** Its entry in `KNOWN_SCHEMA_GAPS`, which explains the gap in general. */
  readonly gap: KnownSchemaGapId;
  readonly dtoName: string;
  readonly propertyName: string;
  /** What happened for this property, naming the decorator. */
  readonly detail: string;
}

export interface DtoSchemaFactoryOptions {
  /**
   * Called for each rule that the schema enforces differently from class-validator, so
   * the caller can warn at bootstrap. Call-time validation is unaffected.
   * @default ignore
   */
  onGap?: (notice: SchemaGapNotice) => void;
}

/**
 * Builds the JSON Schema (2020-12) of a tool's arguments from the class-validator and
 * class-transformer metadata of its DTO, read at runtime, so `PartialType()`-style
 * classes and inherited rules count. The schema says what `DtoArgumentsValidator`
 * enforces; where it cannot, the difference is listed in `KNOWN_SCHEMA_GAPS`.
 *
 * It holds no cache: the caller builds each schema once, at bootstrap.
 * @publicApi
 */
export class DtoSchemaFactory {
  constructor(private readonly options: DtoSchemaFactoryOptions = {}) {}

  /** Self-contained JSON Schema 2020-12 for a tool's arguments DTO. */
  createInputSchema(dto: Function | undefined): JsonSchema {
    if (!dto) return { type: 'object', additionalProperties: false };
    return new SchemaBuild(this.options.onGap).root(dto);
  }
}

/** @internal A property class-validator knows about, with its rules. */
export interface DtoProperty {
  readonly name: string;
  readonly metadatas: readonly ValidationMetadata[];
}

/**
 * @internal The validated properties of a class, in declaration order: inherited ones
 * first (as in an instance), then the class's own.
 */
export function getDtoProperties(dto: Function): DtoProperty[] {
  // `always: true` includes rules of every group, like `validate()` without `groups`.
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const lineage: unknown[] = [];
  for (let current: unknown = dto; typeof current === 'function';) {
    lineage.push(current);
    current = Object.getPrototypeOf(current);
  }
  const found = new Map<
    string,
    { depth: number; first: number; metadatas: ValidationMetadata[] }
  >();
  metadatas.forEach((metadata, index) => {
    const depth = Math.max(0, lineage.indexOf(metadata.target));
    const entry = found.get(metadata.propertyName);
    if (entry) {
      entry.depth = Math.max(entry.depth, depth);
      entry.metadatas.push(metadata);
    } else {
      found.set(metadata.propertyName, { depth, first: index, metadatas: [metadata] });
    }
  });
  return [...found]
    .toSorted(([, a], [, b]) => b.depth - a.depth || a.first - b.first)
    .map(([name, { metadatas: own }]) => ({ name, metadatas: own }));
}

/** @internal Where `@ValidateNested()` leads. */
export interface NestedTarget {
  /** The DTO class; `undefined` when a `@Type()` discriminator picks it per value. */
  readonly type: Function | undefined;
  readonly array: boolean;
  /** Found through `design:type` because `@Type()` is missing. */
  readonly fromDesignType: boolean;
}

interface TypeMetadataStorage {
  findTypeMetadata(
    target: Function,
    propertyName: string,
  ):
    | {
        typeFunction: (options: object) => Function;
        reflectedType?: unknown;
        options?: { discriminator?: unknown };
      }
    | undefined;
}

const requireFromHere = createRequire(import.meta.url);

// class-transformer exports no accessor for `@Type()`; this is the storage its decorators
// write to (the same deep path `@nestjs/mapped-types` reads). The package is CommonJS, so
// ESM importers of 'class-transformer' load the very same module.
function typeMetadataStorage(): TypeMetadataStorage | undefined {
  for (const path of ['class-transformer/cjs/storage.js', 'class-transformer/storage']) {
    try {
      return (requireFromHere(path) as { defaultMetadataStorage: TypeMetadataStorage })
        .defaultMetadataStorage;
    } catch {
      // try the next layout
    }
  }
  return undefined;
}

const BUILT_IN_TYPES = new Set<unknown>([
  Object,
  Array,
  String,
  Number,
  Boolean,
  Date,
  Map,
  Set,
  Promise,
  Function,
  Symbol,
  BigInt,
]);

const designTypeOf = (dto: Function, property: string): unknown => {
  const reflect = Reflect as unknown as {
    getMetadata?: (key: string, target: object, property: string) => unknown;
  };
  return reflect.getMetadata?.('design:type', dto.prototype as object, property);
};

/**
 * @internal The class `@ValidateNested()` validates for `dto[property]`: from
 * class-transformer's `@Type()`, else from `design:type` when that names a class.
 * @throws DtoSchemaError when neither names a class.
 */
export function resolveNestedTarget(dto: Function, property: string, each: boolean): NestedTarget {
  const designType = designTypeOf(dto, property);
  const array = each || designType === Array;
  const typeMetadata = typeMetadataStorage()?.findTypeMetadata(dto, property);
  if (typeMetadata?.options?.discriminator) {
    return { type: undefined, array, fromDesignType: false };
  }
  if (typeMetadata) {
    let type: Function;
    try {
      type = typeMetadata.typeFunction({ newObject: {}, object: {}, property });
    } catch (error) {
      throw new DtoSchemaError(
        dto.name,
        property,
        `its @Type() function failed without a value (${(error as Error).message}).`,
        'Use @Type(() => SomeDto), which names the class without looking at the value.',
      );
    }
    return { type, array: array || typeMetadata.reflectedType === Array, fromDesignType: false };
  }
  if (typeof designType === 'function' && !BUILT_IN_TYPES.has(designType)) {
    return { type: designType, array: false, fromDesignType: true };
  }
  const recorded = typeof designType === 'function' ? designType.name : 'no type';
  throw new DtoSchemaError(
    dto.name,
    property,
    `@ValidateNested() needs the class of the ${array ? 'elements' : 'value'}, and TypeScript ` +
      `records only ${recorded} for it.`,
    `Add @Type(() => ItsDto) from class-transformer${array ? ' (the element class)' : ''}.`,
  );
}

/** One rule's schema keywords, with the decorator they came from for messages. */
interface Part {
  readonly schema: JsonSchema;
  readonly decorator: string;
}

// Two rules on the same keyword both apply, so keep the tighter bound.
const TIGHTEN: Readonly<Record<string, (a: number, b: number) => number>> = {
  minimum: Math.max,
  minLength: Math.max,
  minItems: Math.max,
  maximum: Math.min,
  maxLength: Math.min,
  maxItems: Math.min,
};

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// Property names come from user classes; `__proto__` must stay a key, not a prototype.
const setOwn = (target: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};

const asTypeSet = (type: unknown): Set<JsonSchemaTypeName> =>
  new Set((Array.isArray(type) ? type : [type]) as JsonSchemaTypeName[]);

/** Values of both type sets, where an integer is also a number. */
const intersectTypes = (a: Set<JsonSchemaTypeName>, b: Set<JsonSchemaTypeName>) => {
  const both = new Set<JsonSchemaTypeName>();
  for (const type of a) {
    if (b.has(type)) both.add(type);
    else if (type === 'integer' && b.has('number')) both.add('integer');
    else if (type === 'number' && b.has('integer')) both.add('integer');
  }
  return both;
};

/** The state of one `createInputSchema` call: the `$defs` built or being built. */
class SchemaBuild {
  // A class gets its key before its schema is built, so a class that refers to itself
  // (directly or through others) finds the key instead of recursing: the pending set.
  private readonly defKeys = new Map<Function, string>();
  private readonly defs: Record<string, JsonSchema> = {};
  private readonly storage = getMetadataStorage();

  constructor(private readonly onGap?: (notice: SchemaGapNotice) => void) {}

  root(dto: Function): JsonSchema {
    const schema = this.objectSchema(dto);
    return Object.keys(this.defs).length > 0 ? { ...schema, $defs: this.defs } : schema;
  }

  private objectSchema(dto: Function): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of getDtoProperties(dto)) {
      const built = this.propertySchema(dto, property);
      setOwn(properties, property.name, built.schema);
      if (built.required) required.push(property.name);
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
      if (getDtoProperties(dto).length === 0) {
        throw new DtoSchemaError(
          from.name,
          property,
          `${dto.name || 'its nested class'} has no class-validator decorators, so ` +
            'class-validator rejects every value of it as "an unknown value".',
          `Decorate the properties of ${dto.name || 'that class'} (@IsString(), @Allow(), ...), ` +
            'or point @Type() at the right class.',
        );
      }
      key = this.uniqueKey(dto);
      this.defKeys.set(dto, key);
      // Reserve the slot so `$defs` lists classes in the order they are first met.
      this.defs[key] = {};
      this.defs[key] = this.objectSchema(dto);
    }
    return `#/$defs/${key}`;
  }

  private uniqueKey(dto: Function): string {
    const base = dto.name || 'Anonymous';
    const taken = new Set(this.defKeys.values());
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    return key;
  }

  private propertySchema(
    dto: Function,
    { name, metadatas }: DtoProperty,
  ): { schema: JsonSchema; required: boolean } {
    const valueParts: Part[] = [];
    const itemParts: Part[] = [];
    let optional = false;
    let nested: ValidationMetadata | undefined;
    const report = (gap: ConstraintGap) =>
      this.onGap?.({ gap: gap.gap, dtoName: dto.name, propertyName: name, detail: gap.detail });

    for (const metadata of metadatas) {
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        optional = true;
        if (metadata.name !== 'isOptional') {
          report({ gap: 'validate-if', detail: '@ValidateIf() makes its rules conditional' });
        }
      } else if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
        nested = nested?.each ? nested : metadata;
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        const validator = this.validatorName(metadata);
        // A custom validator may be named like an Object.prototype member ("toString").
        const converter = Object.hasOwn(VALIDATION_CONSTRAINT_CONVERTERS, validator)
          ? VALIDATION_CONSTRAINT_CONVERTERS[validator]
          : undefined;
        if (!converter) {
          report({ gap: 'custom-validator', detail: `${validator} is enforced at call time only` });
          continue;
        }
        const conversion = converter.convert(metadata.constraints ?? []);
        conversion.gaps?.forEach(report);
        if (metadata.validateIf) {
          report({
            gap: 'validate-if',
            detail: `@${converter.decorator}() has a validateIf option`,
          });
        }
        const part = { schema: conversion.schema, decorator: converter.decorator };
        (metadata.each ? itemParts : valueParts).push(part);
      }
    }

    // Only `@Allow()` is not a rule on the value: it just lets the property through.
    const required =
      !optional && metadatas.some((metadata) => metadata.type !== ValidationTypes.WHITELIST);
    if (nested && required && !this.checksPresence(metadatas)) {
      report({
        gap: 'nested-presence',
        detail: 'a missing value passes @ValidateNested(); add @IsDefined() or @IsOptional()',
      });
    }

    let array = itemParts.length > 0;
    if (nested) {
      const target = resolveNestedTarget(dto, name, nested.each ?? false);
      const reference: JsonSchema = target.type
        ? { $ref: this.refTo(target.type, dto, name) }
        : { type: 'object' };
      if (!target.type) {
        report({ gap: 'type-discriminator', detail: '@Type() has a discriminator' });
      }
      (target.array ? itemParts : valueParts).unshift({
        schema: reference,
        decorator: 'ValidateNested',
      });
      array ||= target.array;
    }

    if (!array) return { schema: this.merge(dto, name, valueParts), required };
    const schema = this.merge(dto, name, [
      { schema: { type: 'array' }, decorator: 'each: true' },
      ...valueParts,
    ]);
    return { schema: { ...schema, items: this.merge(dto, name, itemParts) }, required };
  }

  private validatorName(metadata: ValidationMetadata): string {
    const constraint = this.storage.getTargetValidatorConstraints(metadata.constraintCls)[0];
    return constraint?.name ?? metadata.name ?? 'a custom validator';
  }

  private checksPresence(metadatas: readonly ValidationMetadata[]): boolean {
    return metadatas.some(
      (metadata) =>
        metadata.type === ValidationTypes.IS_DEFINED ||
        metadata.type === ValidationTypes.CUSTOM_VALIDATION,
    );
  }

  /**
   * Combines the rules of one value. `type` claims are intersected, so the result is the
   * same whatever the decorator order (IsInt + Min → integer). Bounds keep the tighter
   * value; any other clash (two patterns) goes to `allOf`, where both apply.
   */
  private merge(dto: Function, property: string, parts: readonly Part[]): JsonSchema {
    let types: Set<JsonSchemaTypeName> | undefined;
    const claimedBy: string[] = [];
    const keywords: Record<string, unknown> = {};
    const allOf: JsonSchema[] = [];

    for (const { schema, decorator } of parts) {
      const { type, ...rest } = schema;
      if (type !== undefined) {
        claimedBy.push(`@${decorator}()`);
        types = types ? intersectTypes(types, asTypeSet(type)) : asTypeSet(type);
        if (types.size === 0) {
          throw new DtoSchemaError(
            dto.name,
            property,
            `its rules ${claimedBy.join(', ')} ask for different JSON types, so no value can ` +
              'pass them all.',
            'Remove the rule that does not belong to this property.',
          );
        }
      }
      for (const [keyword, value] of Object.entries(rest)) {
        const tighten = TIGHTEN[keyword];
        if (!(keyword in keywords)) keywords[keyword] = value;
        else if (sameJson(keywords[keyword], value)) continue;
        else if (tighten) keywords[keyword] = tighten(keywords[keyword] as number, value as number);
        else allOf.push({ [keyword]: value });
      }
    }

    const typeList = types && [...types];
    const type = typeList && (typeList.length === 1 ? typeList[0] : typeList);
    return {
      ...(type !== undefined && { type }),
      ...keywords,
      // Repeat the type so each branch stands alone for strict validators.
      ...(allOf.length > 0 && { allOf: allOf.map((s) => ({ ...(type && { type }), ...s })) }),
    };
  }
}
