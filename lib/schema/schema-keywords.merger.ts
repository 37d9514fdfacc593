import { DtoSchemaError } from '../errors/dto-schema.error.js';
import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';
import { sameJson } from '../utils/value-checks.util.js';

/** One rule's schema keywords, with the decorator they came from for messages. */
export interface SchemaPart {
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
 * Combines the rules of one value. `type` claims are intersected, so the result is the
 * same whatever the decorator order (IsInt + Min → integer). Bounds keep the tighter
 * value; excluded values (IsDefined, IsNotEmpty, IsNotIn) are pooled into one `not`; any
 * other clash (two patterns) goes to `allOf`, where both apply.
 * @throws DtoSchemaError when the rules ask for types no value has.
 */
export function mergeSchemaParts(
  dto: Function,
  property: string,
  parts: readonly SchemaPart[],
): JsonSchema {
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
    '$ref' in keywords || 'oneOf' in keywords ? new Set<JsonSchemaTypeName>(['object']) : undefined;
  if (excluded) applyExclusions(keywords, allOf, excluded, types ?? nestedObject);
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
function applyExclusions(
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
