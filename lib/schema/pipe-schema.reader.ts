import {
  DefaultValuePipe,
  ParseArrayPipe,
  ParseBoolPipe,
  ParseEnumPipe,
  ParseFloatPipe,
  ParseIntPipe,
  ParseUUIDPipe,
} from '@nestjs/common';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';

/** What the pipes of one route parameter say about the value the client must send. */
export interface PipeSchema {
  /** The value's schema, when a pipe decides it (`ParseIntPipe` → integer). */
  readonly schema?: JsonSchema;
  /** The value of a `DefaultValuePipe`, when there is one. */
  readonly default?: { readonly value: unknown };
  /** A pipe lets a missing value through (`DefaultValuePipe`, `{ optional: true }`). */
  readonly optional: boolean;
  /** An array pipe whose items are a class: the caller builds the item schema from it. */
  readonly itemsClass?: Function;
}

/** A pipe as the decorator received it: a class, or an instance. */
const isPipe = (pipe: unknown, type: Function): boolean => pipe === type || pipe instanceof type;

/** The protected fields of Nest's pipes, read as Nest sets them in their constructors. */
interface PipeFields {
  readonly options?: { optional?: boolean; items?: unknown };
  readonly enumType?: Record<string, string | number>;
  readonly defaultValue?: unknown;
}

const fieldsOf = (pipe: unknown): PipeFields =>
  typeof pipe === 'object' && pipe !== null ? (pipe as PipeFields) : {};

/**
 * The values of a TypeScript enum, without the reverse mapping of numeric members
 * (`{ 0: 'Low', Low: 0 }` is the one value 0), as `ParseEnumPipe` accepts them.
 */
function enumValuesOf(enumType: Record<string, string | number>): (string | number)[] {
  return Object.keys(enumType)
    .filter((key) => {
      const value = enumType[key];
      return !(
        typeof value === 'string' &&
        typeof enumType[value] === 'number' &&
        String(enumType[value]) === key
      );
    })
    .map((key) => enumType[key]!);
}

/** `"type"` of a list of values when they share one JSON type. */
function typeOfValues(values: readonly unknown[]): 'string' | 'number' | undefined {
  if (values.length > 0 && values.every((value) => typeof value === 'string')) return 'string';
  if (values.length > 0 && values.every((value) => typeof value === 'number')) return 'number';
  return undefined;
}

const PRIMITIVE_ITEMS = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
]);

/** The schema one built-in pipe states, or `undefined` for a pipe that says nothing of it. */
function schemaOfPipe(pipe: unknown): { schema: JsonSchema; itemsClass?: Function } | undefined {
  if (isPipe(pipe, ParseIntPipe)) return { schema: { type: 'integer' } };
  if (isPipe(pipe, ParseFloatPipe)) return { schema: { type: 'number' } };
  if (isPipe(pipe, ParseBoolPipe)) return { schema: { type: 'boolean' } };
  if (isPipe(pipe, ParseUUIDPipe)) return { schema: { type: 'string', format: 'uuid' } };
  if (isPipe(pipe, ParseEnumPipe)) {
    const { enumType } = fieldsOf(pipe);
    // The class alone names no enum (Nest cannot build it either): nothing to publish.
    if (!enumType) return undefined;
    const values = enumValuesOf(enumType);
    const type = typeOfValues(values);
    return { schema: { ...(type && { type }), enum: values } };
  }
  if (isPipe(pipe, ParseArrayPipe)) {
    const items = fieldsOf(pipe).options?.items;
    const primitive = PRIMITIVE_ITEMS.get(items);
    if (primitive) return { schema: { type: 'array', items: { ...primitive } } };
    if (typeof items === 'function') return { schema: { type: 'array' }, itemsClass: items };
    return { schema: { type: 'array' } };
  }
  return undefined;
}

/**
 * Reads what Nest's built-in pipes of a route parameter (`@Param('id', ParseIntPipe)`,
 * `@Query('page', new DefaultValuePipe(1), ParseIntPipe)`) say about its value, so that
 * the tool's schema asks for what the pipes accept. Pipes may be given as classes or as
 * instances. The first pipe that decides a type wins: it is the one that sees the value
 * the client sent. A value may be left out when the first pipe that meets a missing value
 * lets it through: a `DefaultValuePipe` (whose value becomes the schema's `default`) or a
 * pipe with `{ optional: true }`; a pipe without it refuses a missing value, as over HTTP.
 */
export function readPipeSchema(pipes: readonly unknown[] = []): PipeSchema {
  let decided: ReturnType<typeof schemaOfPipe>;
  let defaultValue: PipeSchema['default'];
  let optional = false;
  // Whether a value the client left out still reaches this pipe as a missing value.
  let missingReaches = true;
  for (const pipe of pipes) {
    if (isPipe(pipe, DefaultValuePipe)) {
      const value = fieldsOf(pipe).defaultValue;
      if (missingReaches) {
        optional = true;
        if (value !== undefined) defaultValue = { value };
      }
      missingReaches = false;
      continue;
    }
    const found = schemaOfPipe(pipe);
    if (!found) continue;
    decided ??= found;
    if (!missingReaches) continue;
    if (fieldsOf(pipe).options?.optional === true) {
      optional = true;
    } else {
      optional = false;
      missingReaches = false;
    }
  }
  return {
    ...(decided && { schema: decided.schema }),
    ...(decided?.itemsClass && { itemsClass: decided.itemsClass }),
    ...(defaultValue && { default: defaultValue }),
    optional,
  };
}
