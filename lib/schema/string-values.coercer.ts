import type { JsonSchema, JsonSchemaTypeName } from './json-schema.interface.js';

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function typesOf(schema: JsonSchema | undefined): Set<JsonSchemaTypeName> {
  const types = new Set<JsonSchemaTypeName>();
  if (!schema) return types;
  const own = schema.type;
  for (const type of Array.isArray(own) ? own : own ? [own] : []) types.add(type);
  for (const branch of schema.anyOf ?? []) for (const type of typesOf(branch)) types.add(type);
  return types;
}

function coerce(value: string, types: Set<JsonSchemaTypeName>): unknown {
  if (types.has('string') || types.size === 0) return value;
  if ((types.has('integer') || types.has('number')) && NUMBER.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('array')) return [value];
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
  const coerced: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const property = Object.hasOwn(schema.properties ?? {}, name)
      ? schema.properties?.[name]
      : undefined;
    const types = typesOf(property);
    coerced[name] =
      typeof value === 'string'
        ? coerce(value, types)
        : Array.isArray(value) && types.has('array')
          ? value.map((item) =>
              typeof item === 'string' ? coerce(item, typesOf(property?.items)) : item,
            )
          : value;
  }
  return coerced;
}

/** The values an argument may take, where its schema lists them (`@IsEnum()`, `@IsIn()`). */
export function listedValues(schema: JsonSchema, name: string): string[] | undefined {
  const property = Object.hasOwn(schema.properties ?? {}, name)
    ? schema.properties?.[name]
    : undefined;
  const listed =
    property?.enum ??
    property?.items?.enum ??
    property?.anyOf?.flatMap((branch) => branch.enum ?? []);
  if (!listed || listed.length === 0) return undefined;
  return listed.filter((value) => value !== null).map(String);
}
