import {
  getMetadataStorage,
  validateSync,
  ValidationTypes,
  type MetadataStorage,
} from 'class-validator';
import { instanceToPlain } from 'class-transformer';
import { createRequire } from 'node:module';
import { DtoSchemaError } from '../errors/dto-schema.error.js';
import { BUILT_IN_TYPES } from '../utils/built-in-types.js';
import { escapePointer } from '../utils/json-pointer.util.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type {
  McpArgumentOptions,
  McpToolOutput,
} from '../interfaces/mcp-tool-options.interface.js';
import { compileJsonSchema } from './json-schema.check.js';
import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';
import {
  argumentAnnotations,
  readApiPropertyAnnotations,
  type PropertyAnnotations,
} from './property-annotations.reader.js';
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

export interface InputSchemaOptions {
  /**
   * Descriptions, examples and deprecation of the top-level properties (the `arguments`
   * option of `@McpTool()`); they override `@ApiProperty()` field by field.
   */
  arguments?: Readonly<Record<string, string | McpArgumentOptions>>;
}

/**
 * Builds JSON Schemas (2020-12) from the class-validator and class-transformer metadata
 * of DTOs, read at runtime, so `PartialType()`-style classes and inherited rules count:
 * the arguments of a tool, and its declared output. The server checks every call against
 * both this schema and class-validator; where they cannot say the same, the difference is
 * listed in `KNOWN_SCHEMA_GAPS`.
 *
 * It holds no cache: the caller builds each schema once, at bootstrap.
 * @publicApi
 */
export class DtoSchemaFactory {
  constructor(private readonly options: DtoSchemaFactoryOptions = {}) {}

  /**
   * Self-contained JSON Schema 2020-12 for a tool's arguments DTO: an object, nested DTOs
   * in `$defs`, property initializers as `default`, `@ApiProperty()` texts as annotations.
   * @throws DtoSchemaError when a rule cannot be published honestly (the message says why)
   */
  createInputSchema(dto: Function | undefined, options: InputSchemaOptions = {}): JsonSchema {
    if (!dto) return { type: 'object', additionalProperties: false };
    return new SchemaBuild('input', this.options.onGap).input(dto, options);
  }

  /**
   * The `outputSchema` of a declared output, at its natural root: an object for a DTO, an
   * array for `[Dto]`, a scalar for `String`/`Number`/`Boolean`/`Date`. The SDK wraps a
   * non-object root for 2025-era clients. `@Exclude()`d properties are left out, as
   * `instanceToPlain()` leaves them out of the result.
   */
  createOutputSchema(output: McpToolOutput): JsonSchema {
    return new SchemaBuild('output', this.options.onGap).output(output);
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

/** @internal `@Type(() => Base, { discriminator })`: the subtype is picked per value. */
export interface NestedDiscriminator {
  /** The property of the value that names the subtype. */
  readonly property: string;
  readonly subTypes: ReadonlyArray<{ readonly name: string; readonly value: Function }>;
  /** `keepDiscriminatorProperty`: the property stays on the instance (and is validated). */
  readonly keep: boolean;
}

/** @internal Where `@ValidateNested()` leads. */
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
 * @internal The class `@ValidateNested()` validates for `dto[property]`: from
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
function declaredType(dto: Function, property: string): Function | undefined {
  const metadata = transformerStorage()?.findTypeMetadata(dto, property);
  if (!metadata || metadata.options?.discriminator) return undefined;
  try {
    return metadata.typeFunction({ newObject: {}, object: {}, property });
  } catch {
    return undefined;
  }
}

// `@Exclude()` (or `@Exclude({ toPlainOnly: true })`) keeps a property out of
// `instanceToPlain()`, so it is never part of a result.
function excludedFromPlain(dto: Function, property: string): boolean {
  const metadata = transformerStorage()?.findExcludeMetadata(dto, property);
  return metadata !== undefined && metadata.options?.toClassOnly !== true;
}

/** Validators that pass `undefined`, so that a missing property satisfies them. */
const ACCEPTS_MISSING = new Set(['isNotIn']);

/** One rule's schema keywords, with the decorator they came from for messages. */
interface Part {
  readonly schema: JsonSchema;
  readonly decorator: string;
}

// Two rules on the same keyword both apply, so keep the tighter bound.
const TIGHTEN: Readonly<Record<string, (a: number, b: number) => number>> = {
  minimum: Math.max,
  exclusiveMinimum: Math.max,
  minLength: Math.max,
  minItems: Math.max,
  maximum: Math.min,
  exclusiveMaximum: Math.min,
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

const typeKeyword = (types: Iterable<JsonSchemaTypeName>) => {
  const list = [...types];
  return list.length === 1 ? list[0] : list;
};

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

/** Whether a JSON value can be of one of the types. */
const fitsTypes = (value: unknown, types: Set<JsonSchemaTypeName>): boolean => {
  if (value === null) return types.has('null');
  if (typeof value === 'string') return types.has('string');
  if (typeof value === 'boolean') return types.has('boolean');
  if (typeof value === 'number') {
    return types.has('number') || (types.has('integer') && Number.isInteger(value));
  }
  return types.has(Array.isArray(value) ? 'array' : 'object');
};

/** `not: { enum: [...] }`: the values a rule excludes (IsDefined, IsNotEmpty, IsNotIn). */
const exclusionList = (not: unknown): unknown[] | undefined => {
  if (not === null || typeof not !== 'object') return undefined;
  const keys = Object.keys(not);
  if (keys.length === 1 && keys[0] === 'enum') return (not as { enum: unknown[] }).enum;
  if (keys.length === 1 && keys[0] === 'const') return [(not as { const: unknown }).const];
  return undefined;
};

const exclusion = (values: readonly unknown[]): JsonSchema =>
  values.length === 1 ? { const: values[0] } : { enum: [...values] };

/**
 * The schema of a value that may also be null, as `@IsOptional()` lets null through
 * whatever the other rules say. Keywords that only constrain one type (bounds, patterns,
 * items) ignore null, so adding `null` to `type`, `enum` and `const` is enough; a `$ref` or
 * a `oneOf` is wrapped in `anyOf`.
 */
export function allowNull(schema: JsonSchema): JsonSchema {
  const { type, enum: values, const: constant, not, allOf, ...rest } = schema;
  if (
    '$ref' in rest ||
    'anyOf' in rest ||
    'oneOf' in rest ||
    (not !== undefined && exclusionList(not) === undefined)
  ) {
    return { anyOf: [{ type: 'null' }, schema] };
  }
  const types = type === undefined ? undefined : asTypeSet(type).add('null');
  const excluded = not && exclusionList(not)?.filter((value) => value !== null);
  let allowed = values;
  if (constant !== undefined) allowed = [constant];
  return {
    ...(types && { type: typeKeyword(types) }),
    ...rest,
    ...(allowed && { enum: allowed.includes(null) ? allowed : [...allowed, null] }),
    ...(excluded && excluded.length > 0 && { not: exclusion(excluded) }),
    ...(allOf && { allOf: allOf.map(allowNull) }),
  };
}

const isPlainJson = (value: unknown): boolean => {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
};

/** A property initializer read from `new Dto()`, as class-transformer applies it. */
interface InitializerDefault {
  /** The value as JSON, for `default`; `undefined` when it differs per instance. */
  readonly json: unknown;
}

/** Where `$defs` keeps the root object while defaults are checked (never published). */
const ROOT_DEF_KEY = '@root';

/** The state of one schema build: the `$defs` built or being built. */
class SchemaBuild {
  // A class gets its key before its schema is built, so a class that refers to itself
  // (directly or through others) finds the key instead of recursing: the pending set.
  private readonly defKeys = new Map<Function, string>();
  private readonly variantKeys = new Map<Function, Map<string, string>>();
  private readonly defs: Record<string, JsonSchema> = {};
  private readonly storage = getMetadataStorage();
  private readonly defaultsToCheck: Array<{
    dto: Function;
    property: string;
    value: unknown;
  }> = [];

  constructor(
    private readonly mode: 'input' | 'output',
    private readonly onGap?: (notice: SchemaGapNotice) => void,
  ) {}

  input(dto: Function, { arguments: args = {} }: InputSchemaOptions): JsonSchema {
    const schema = this.objectSchema(dto, args);
    for (const name of Object.keys(args)) {
      if (!Object.hasOwn(schema.properties ?? {}, name)) {
        const known = Object.keys(schema.properties ?? {}).join(', ') || '(none)';
        throw new McpConfigurationError(
          `The "arguments" option names "${name}", which is not a property of ${dto.name}. ` +
            `Its properties: ${known}.`,
        );
      }
    }
    const root = this.withDefs(schema);
    this.checkDefaults(dto, schema);
    return root;
  }

  output(declared: McpToolOutput): JsonSchema {
    const list = Array.isArray(declared);
    const type = (list ? declared[0] : declared) as Function | undefined;
    if (typeof type !== 'function' || (list && declared.length !== 1)) {
      throw new McpConfigurationError(
        'The "output" option of @McpTool() takes a class (ProductDto, String, Number, ' +
          'Boolean, Date) or a list of one class ([ProductDto]).',
      );
    }
    const scalar = SCALAR_OUTPUTS.get(type);
    if (scalar) return list ? { type: 'array', items: { ...scalar } } : { ...scalar };
    if (BUILT_IN_TYPES.has(type) || getDtoProperties(type).length === 0) {
      throw new McpConfigurationError(
        `${type.name || 'The output class'} has no class-validator decorators, so no output ` +
          'schema can be built from it. The same decorators describe arguments and ' +
          'outputs: decorate its properties (@IsString(), @IsInt(), @ValidateNested(), ...).',
      );
    }
    if (list)
      return this.withDefs({ type: 'array', items: { $ref: this.refTo(type, type, '[]') } });
    return this.withDefs(this.objectSchema(type, {}));
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
    const defaults = this.mode === 'input' ? this.defaultsOf(dto, dtoProperties) : new Map();
    for (const property of dtoProperties) {
      if (this.mode === 'output' && excludedFromPlain(dto, property.name)) continue;
      const built = this.propertySchema(dto, property);
      const initial = defaults.get(property.name);
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
        ...(initial?.json !== undefined && { default: initial.json }),
        ...more,
      });
      // class-transformer keeps the initializer when the argument is left out, so a
      // property with a default is never missing by the time class-validator runs.
      if (built.required && !initial) required.push(property.name);
    }
    return {
      type: 'object',
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
    };
  }

  /**
   * The property initializers of a DTO (`limit = 10`), from `new Dto()`: what
   * class-transformer starts from on every call. A value that differs between two
   * instances (`id = randomUUID()`) is not a default to publish, but it still makes the
   * property optional.
   */
  private defaultsOf(
    dto: Function,
    properties: readonly DtoProperty[],
  ): Map<string, InitializerDefault> {
    const defaults = new Map<string, InitializerDefault>();
    let first: Record<string, unknown>;
    let second: Record<string, unknown>;
    try {
      const create = dto as new () => Record<string, unknown>;
      first = new create();
      second = new create();
    } catch {
      return defaults; // class-transformer would fail the same way; nothing to read
    }
    const known = new Set(properties.map((property) => property.name));
    for (const key of Object.keys(first)) {
      const value = first[key];
      // Fields compiled with [[Define]] semantics exist on every instance, as undefined.
      if (value === undefined) continue;
      if (!known.has(key)) {
        throw new DtoSchemaError(
          dto.name,
          key,
          'it has an initializer but no class-validator decorator, so the whitelist ' +
            'rejects every call ("property should not exist").',
          'Add a rule (or @Allow()) to it, or remove the initializer.',
        );
      }
      const plain = instanceToPlain({ value }) as { value: unknown };
      const stable = sameJson(plain, instanceToPlain({ value: second[key] }));
      const json =
        stable && isPlainJson(plain.value) ? JSON.parse(JSON.stringify(plain.value)) : undefined;
      defaults.set(key, { json });
      this.defaultsToCheck.push({ dto, property: key, value: json });
    }
    return defaults;
  }

  /**
   * A default must pass its own rules, or every call that leaves the argument out fails:
   * checked once the whole schema (with `$defs`) exists, with the same two validators a
   * call meets, the SDK's JSON Schema check and class-validator.
   */
  private checkDefaults(rootDto: Function, root: JsonSchema): void {
    const instances = new Map<Function, ReturnType<typeof validateSync>>();
    for (const { dto, property, value } of this.defaultsToCheck) {
      let errors = instances.get(dto);
      if (!errors) {
        errors = validateSync(new (dto as new () => object)(), { forbidUnknownValues: false });
        instances.set(dto, errors);
      }
      const failed = errors.find((error) => error.property === property);
      if (failed) {
        const messages = Object.values(failed.constraints ?? {}).join('; ') || 'a nested rule';
        throw new DtoSchemaError(
          dto.name,
          property,
          `its default breaks its own rules (${messages}), so every call without it would fail.`,
          'Change the initializer, or the rules.',
        );
      }
      if (value === undefined) continue;
      const key = dto === rootDto ? ROOT_DEF_KEY : this.defKeys.get(dto);
      if (key === undefined) continue;
      // The root object goes into `$defs` too, so one `$ref` reaches any property.
      const { $defs: _ignored, ...rootObject } = root;
      const document: JsonSchema = {
        $defs: { ...this.defs, [ROOT_DEF_KEY]: rootObject },
        $ref: `#/$defs/${escapePointer(key)}/properties/${escapePointer(property)}`,
      };
      const issues = compileJsonSchema(document, property)(value);
      if (issues.length > 0) {
        throw new DtoSchemaError(
          dto.name,
          property,
          `its default ${JSON.stringify(value)} does not fit its schema ` +
            `(${issues.map((issue) => issue.message).join('; ')}).`,
          'Change the initializer, or the rules.',
        );
      }
    }
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

  private propertySchema(
    dto: Function,
    { name, metadatas }: DtoProperty,
  ): { schema: JsonSchema; required: boolean } {
    const valueParts: Part[] = [];
    const itemParts: Part[] = [];
    let optional = false;
    let nullable = false;
    let nested: ValidationMetadata | undefined;
    const report = (gap: ConstraintGap) =>
      this.onGap?.({ gap: gap.gap, dtoName: dto.name, propertyName: name, detail: gap.detail });

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
        if (conversion.refusal) {
          throw new DtoSchemaError(
            dto.name,
            name,
            conversion.refusal.problem,
            conversion.refusal.fix,
          );
        }
        if (validator === 'isDate') this.assertDateConversion(dto, name);
        conversion.gaps?.forEach(report);
        if (metadata.validateIf) {
          report({
            gap: 'validate-if',
            detail: `@${converter.decorator}() has a validateIf option`,
          });
        }
        // Converters may share their schema objects; the merge must never alter them.
        parts.push({ schema: structuredClone(conversion.schema), decorator: converter.decorator });
      }
    }

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
      let reference: JsonSchema;
      if (target.discriminator) {
        const { discriminator } = target;
        reference = {
          oneOf: discriminator.subTypes.map((subType) => ({
            $ref: this.variantRef(discriminator, subType, dto, name),
          })),
        };
      } else {
        reference = { $ref: this.refTo(target.type as Function, dto, name) };
      }
      (target.array ? itemParts : valueParts).unshift({
        schema: reference,
        decorator: 'ValidateNested',
      });
      array ||= target.array;
    }

    let schema: JsonSchema;
    if (!array) {
      schema = this.merge(dto, name, valueParts);
    } else {
      const outer = this.merge(dto, name, [
        { schema: { type: 'array' }, decorator: 'each: true' },
        ...valueParts,
      ]);
      schema = { ...outer, items: this.merge(dto, name, itemParts) };
    }
    return { schema: nullable ? allowNull(schema) : schema, required };
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

  private validatorName(metadata: ValidationMetadata): string {
    const constraint = this.storage.getTargetValidatorConstraints(metadata.constraintCls)[0];
    return constraint?.name ?? metadata.name ?? 'a custom validator';
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
          !ACCEPTS_MISSING.has(this.validatorName(metadata))),
    );
  }

  /**
   * Combines the rules of one value. `type` claims are intersected, so the result is the
   * same whatever the decorator order (IsInt + Min → integer). Bounds keep the tighter
   * value; excluded values (IsDefined, IsNotEmpty, IsNotIn) are pooled into one `not`; any
   * other clash (two patterns) goes to `allOf`, where both apply.
   */
  private merge(dto: Function, property: string, parts: readonly Part[]): JsonSchema {
    let types: Set<JsonSchemaTypeName> | undefined;
    const claimedBy: string[] = [];
    const keywords: Record<string, unknown> = {};
    const allOf: JsonSchema[] = [];
    let excluded: unknown[] | undefined;

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
        const list = keyword === 'not' ? exclusionList(value) : undefined;
        if (list) {
          excluded = [...new Set([...(excluded ?? []), ...list])];
          continue;
        }
        const tighten = TIGHTEN[keyword];
        if (!(keyword in keywords)) keywords[keyword] = value;
        else if (sameJson(keywords[keyword], value)) continue;
        else if (tighten) keywords[keyword] = tighten(keywords[keyword] as number, value as number);
        else allOf.push({ [keyword]: value });
      }
    }

    // A nested DTO (`$ref`, or `oneOf` of subtypes) is always an object, which rules out
    // the null and '' that IsDefined and IsNotEmpty exclude.
    const nestedObject =
      '$ref' in keywords || 'oneOf' in keywords
        ? new Set<JsonSchemaTypeName>(['object'])
        : undefined;
    if (excluded) this.applyExclusions(keywords, allOf, excluded, types ?? nestedObject);
    const type = types && typeKeyword(types);
    return {
      ...(type !== undefined && { type }),
      ...keywords,
      // Repeat the type so each branch stands alone for strict validators.
      ...(allOf.length > 0 && { allOf: allOf.map((s) => ({ ...(type && { type }), ...s })) }),
    };
  }

  /**
   * Writes excluded values the shortest exact way: nothing for values the type already
   * rules out, `minLength: 1` for the empty string of a string, a smaller `enum`, or `not`.
   */
  private applyExclusions(
    keywords: Record<string, unknown>,
    allOf: JsonSchema[],
    excluded: unknown[],
    types: Set<JsonSchemaTypeName> | undefined,
  ): void {
    let remaining = types ? excluded.filter((value) => fitsTypes(value, types)) : excluded;
    if (Array.isArray(keywords.enum)) {
      keywords.enum = keywords.enum.filter((value) => !remaining.includes(value));
      if ((keywords.enum as unknown[]).length === 0) {
        delete keywords.enum;
        keywords.not = {};
      }
      return;
    }
    if (types?.size === 1 && types.has('string') && remaining.includes('')) {
      keywords.minLength = Math.max(1, (keywords.minLength as number | undefined) ?? 0);
      remaining = remaining.filter((value) => value !== '');
    }
    if (remaining.length === 0) return;
    if ('not' in keywords) allOf.push({ not: exclusion(remaining) });
    else keywords.not = exclusion(remaining);
  }
}

/** Outputs that are not DTOs: what `JSON.stringify` makes of them. */
const SCALAR_OUTPUTS = new Map<Function, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
]);
