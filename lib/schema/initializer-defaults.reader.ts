import { instanceToPlain } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DtoSchemaError } from '../errors/dto-schema.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { escapePointer } from '../utils/json-pointer.util.js';
import { sameJson } from '../utils/value-checks.util.js';
import type { DtoProperty } from './dto-metadata.reader.js';
import { compileJsonSchema } from './json-schema.check.js';

/** A property initializer read from `new Dto()`, as class-transformer applies it. */
export interface InitializerDefault {
  /** The value as JSON, for `default`; `undefined` when it differs per instance. */
  readonly json: unknown;
}

/** A default to hold to its property's rules once the whole schema exists. */
export interface DefaultToCheck {
  readonly dto: Function;
  readonly property: string;
  /** The published `default`; `undefined` when none is published. */
  readonly value: unknown;
}

const isPlainJson = (value: unknown): boolean => {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
};

/**
 * The property initializers of a DTO (`limit = 10`), from `new Dto()`: what
 * class-transformer starts from on every call. A value that differs between two
 * instances (`id = randomUUID()`) is not a default to publish, but it still makes the
 * property optional.
 * @throws DtoSchemaError for an initialized property without a rule.
 */
export function readInitializerDefaults(
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
  }
  return defaults;
}

/**
 * A default must pass its own rules, or every call that leaves the argument out fails:
 * checked once the whole schema exists, with the same two validators a call meets, the
 * JSON Schema check and class-validator.
 * @param defs Every object schema of the build, the root included, by its key.
 * @param defKeyOf The key of a DTO's object schema in `defs`.
 * @throws DtoSchemaError for the first default that fails.
 */
export function assertDefaultsFit(
  defaults: readonly DefaultToCheck[],
  defs: Readonly<Record<string, JsonSchema>>,
  defKeyOf: (dto: Function) => string | undefined,
): void {
  const instances = new Map<Function, ReturnType<typeof validateSync>>();
  for (const { dto, property, value } of defaults) {
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
    const key = defKeyOf(dto);
    if (key === undefined) continue;
    // One `$ref` into `$defs` reaches the property wherever its class sits in the schema.
    const document: JsonSchema = {
      $defs: { ...defs },
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
