import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function typesOf(schema: JsonSchema | undefined): Set<JsonSchemaTypeName> {
  const types = new Set<JsonSchemaTypeName>();
  if (!schema) return types;
  const own = schema.type;
  for (const type of Array.isArray(own) ? own : own ? [own] : []) types.add(type);
  for (const branch of schema.anyOf ?? []) for (const type of typesOf(branch)) types.add(type);
  return types;
}

/** The schema of property `name`; own keys only, so `constructor` finds nothing. */
const propertyOf = (schema: JsonSchema, name: string): JsonSchema | undefined =>
  schema.properties && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;

function coerce(value: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if (types.has('string') || types.size === 0) return value;
  if ((types.has('integer') || types.has('number')) && NUMBER.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  // One value for an array: a one-item array, its item read as the items' schema asks.
  if (types.has('array')) return [coerce(value, schema?.items)];
  return value;
}

/**
 * Prompt arguments and URI template variables are strings on the wire; a DTO may still
 * type them (`@IsInt() page: number`). Each string becomes the value its property's schema
 * asks for when it reads as one (`"2"` → `2`, `"true"` → `true`), and is left as it is
 * otherwise, so that validation then names the real problem.
 */
export function coerceStringValues(
  schema: JsonSchema,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  // `fromEntries` defines each key as an own property: `__proto__` stays a plain key (for
  // validation to refuse) instead of setting the prototype of the result.
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const property = propertyOf(schema, name);
      const coerced =
        typeof value === 'string'
          ? coerce(value, property)
          : Array.isArray(value) && typesOf(property).has('array')
            ? value.map((item) => (typeof item === 'string' ? coerce(item, property?.items) : item))
            : value;
      return [name, coerced];
    }),
  );
}

/** The values an argument may take, where its schema lists them (`@IsEnum()`, `@IsIn()`). */
export function listedValues(schema: JsonSchema, name: string): string[] | undefined {
  const property = propertyOf(schema, name);
  const listed =
    property?.enum ??
    property?.items?.enum ??
    property?.anyOf?.flatMap((branch) => branch.enum ?? []);
  if (!listed || listed.length === 0) return undefined;
  return listed.filter((value) => value !== null).map(String);
}
