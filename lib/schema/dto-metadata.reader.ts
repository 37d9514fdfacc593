import { TransformationType } from 'class-transformer';
import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import { createRequire } from 'node:module';
import { DtoSchemaError } from '../errors/dto-schema.error.js';
import { BUILT_IN_TYPES } from '../utils/built-in-types.js';

/*
 * What class-validator and class-transformer know of a DTO, read from their metadata at
 * run time (so `PartialType()`-style classes and inherited rules count). The schema
 * builder and the arguments validator both read DTOs through here, so they never see a
 * class differently.
 */

/** One class-validator rule on one property, as its metadata storage keeps it. */
export type ValidationMetadata = ReturnType<
  MetadataStorage['getTargetValidationMetadatas']
>[number];

/** A property class-validator knows about, with its rules. */
export interface DtoProperty {
  readonly name: string;
  readonly metadatas: readonly ValidationMetadata[];
}

/**
 * The validated properties of a class, in declaration order: inherited ones
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

/**
 * The name of the validator behind a rule (`isString`, `isEnum`, the `name` of a
 * `registerDecorator()`), as `getTargetValidatorConstraints()` reports it; the keys of
 * `VALIDATION_CONSTRAINT_CONVERTERS`. `undefined` for a rule without a name.
 */
export function validatorNameOf(metadata: ValidationMetadata): string | undefined {
  const constraint = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)[0];
  return constraint?.name ?? metadata.name;
}

/** `@Type(() => Base, { discriminator })`: the subtype is picked per value. */
export interface NestedDiscriminator {
  /** The property of the value that names the subtype. */
  readonly property: string;
  readonly subTypes: ReadonlyArray<{ readonly name: string; readonly value: Function }>;
  /** `keepDiscriminatorProperty`: the property stays on the instance (and is validated). */
  readonly keep: boolean;
}

/** Where `@ValidateNested()` leads. */
export interface NestedTarget {
  /** The DTO class; `undefined` when a `@Type()` discriminator picks it per value. */
  readonly type: Function | undefined;
  readonly array: boolean;
  /** Found through `design:type` because `@Type()` is missing. */
  readonly fromDesignType: boolean;
  readonly discriminator?: NestedDiscriminator;
}

interface TypeMetadata {
  typeFunction: (options: object) => Function;
  reflectedType?: unknown;
  options?: {
    discriminator?: { property?: unknown; subTypes?: unknown };
    keepDiscriminatorProperty?: boolean;
  };
}

interface TransformerMetadataStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
  findExcludeMetadata(
    target: Function,
    propertyName: string,
  ): { options?: { toClassOnly?: boolean } } | undefined;
  findTransformMetadatas(
    target: Function,
    propertyName: string,
    type: TransformationType,
  ): unknown[];
  getStrategy(target: Function): string;
  getExposedProperties(target: Function, type: TransformationType): unknown[];
  getExcludedProperties(target: Function, type: TransformationType): unknown[];
}

const requireFromHere = createRequire(import.meta.url);

// class-transformer exports no accessor for `@Type()`; this is the storage its decorators
// write to (the same deep path `@nestjs/mapped-types` reads). The package is CommonJS, so
// ESM importers of 'class-transformer' load the very same module.
function transformerStorage(): TransformerMetadataStorage | undefined {
  for (const path of ['class-transformer/cjs/storage.js', 'class-transformer/storage']) {
    try {
      return (requireFromHere(path) as { defaultMetadataStorage: TransformerMetadataStorage })
        .defaultMetadataStorage;
    } catch {
      // try the next layout
    }
  }
  return undefined;
}

const designTypeOf = (dto: Function, property: string): unknown => {
  const reflect = Reflect as unknown as {
    getMetadata?: (key: string, target: object, property: string) => unknown;
  };
  return reflect.getMetadata?.('design:type', dto.prototype as object, property);
};

function readDiscriminator(
  dto: Function,
  property: string,
  metadata: TypeMetadata,
): NestedDiscriminator {
  const { property: key, subTypes } = metadata.options?.discriminator ?? {};
  const valid =
    typeof key === 'string' &&
    Array.isArray(subTypes) &&
    subTypes.length > 0 &&
    subTypes.every(
      (subType: { name?: unknown; value?: unknown } | null) =>
        typeof subType?.name === 'string' && typeof subType.value === 'function',
    );
  if (!valid) {
    throw new DtoSchemaError(
      dto.name,
      property,
      'its @Type() discriminator needs a property name and a non-empty list of subtypes.',
      "Write @Type(() => Base, { discriminator: { property: 'kind', subTypes: [{ name: 'a', value: ADto }] } }).",
    );
  }
  return {
    property: key,
    subTypes: subTypes as NestedDiscriminator['subTypes'],
    keep: metadata.options?.keepDiscriminatorProperty === true,
  };
}

/**
 * The class `@ValidateNested()` validates for `dto[property]`: from
 * class-transformer's `@Type()`, else from `design:type` when that names a class.
 * @throws DtoSchemaError when neither names a class.
 */
export function resolveNestedTarget(dto: Function, property: string, each: boolean): NestedTarget {
  const designType = designTypeOf(dto, property);
  const array = each || designType === Array;
  const typeMetadata = transformerStorage()?.findTypeMetadata(dto, property);
  if (typeMetadata?.options?.discriminator) {
    return {
      type: undefined,
      array: array || typeMetadata.reflectedType === Array,
      fromDesignType: false,
      discriminator: readDiscriminator(dto, property, typeMetadata),
    };
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

/** The class `@Type()` names for a property (no discriminator), if any. */
export function declaredType(dto: Function, property: string): Function | undefined {
  const metadata = transformerStorage()?.findTypeMetadata(dto, property);
  if (!metadata || metadata.options?.discriminator) return undefined;
  try {
    return metadata.typeFunction({ newObject: {}, object: {}, property });
  } catch {
    return undefined;
  }
}

/**
 * Whether `@Exclude()` (or `@Exclude({ toPlainOnly: true })`) keeps a property
 * out of `instanceToPlain()`, so that it is never part of a result.
 */
export function excludedFromPlain(dto: Function, property: string): boolean {
  const metadata = transformerStorage()?.findExcludeMetadata(dto, property);
  return metadata !== undefined && metadata.options?.toClassOnly !== true;
}

/**
 * Whether class-transformer may hand class-validator something else than the plain values
 * (nested DTOs aside): a `@Transform()` applied from plain, or an `@Expose()`/`@Exclude()`
 * of the class or of a property, which rename, drop or add keys. Inherited ones count.
 * @param properties the validated properties (a key the DTO does not declare is refused)
 */
export function reshapesPlainValues(dto: Function, properties: readonly string[]): boolean {
  const storage = transformerStorage();
  if (!storage) return true; // an unknown layout: assume the worst
  return (
    storage.getStrategy(dto) !== 'none' ||
    storage.getExposedProperties(dto, TransformationType.PLAIN_TO_CLASS).length > 0 ||
    storage.getExcludedProperties(dto, TransformationType.PLAIN_TO_CLASS).length > 0 ||
    properties.some(
      (property) =>
        storage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0,
    )
  );
}
