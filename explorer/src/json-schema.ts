/** The part of JSON Schema the explorer reads to describe and fill in arguments. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
}

export type FieldKind =
  'object' | 'array' | 'enum' | 'boolean' | 'number' | 'integer' | 'string' | 'json';

/** The schema a `$ref` points to, within the root schema; the schema itself otherwise. */
export function resolveSchema(schema: JsonSchema | undefined, root: JsonSchema): JsonSchema {
  let current = schema ?? {};
  for (let depth = 0; current.$ref && depth < 16; depth++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    const target = match
      ? root[match[1] as '$defs' | 'definitions']?.[decodeURIComponent(match[2]!)]
      : undefined;
    if (!target) break;
    current = { ...target, ...current, $ref: undefined };
  }
  return current;
}

/** The allowed values of an enum, also written as `oneOf`/`anyOf` of `const`s. */
export function enumValues(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  const options = schema.oneOf ?? schema.anyOf;
  if (options?.length && options.every((option) => 'const' in option)) {
    return options.map((option) => option.const);
  }
  return undefined;
}

/** The type without `null`, for `["string", "null"]`. */
export function mainType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  return schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
}

/** Which input fills this value in. */
export function fieldKind(schema: JsonSchema): FieldKind {
  if (enumValues(schema)) return 'enum';
  const type = mainType(schema);
  switch (type) {
    case 'object':
      return schema.properties ? 'object' : 'json';
    case 'array':
      return schema.items && mainType(schema.items) !== 'array' ? 'array' : 'json';
    case 'boolean':
    case 'number':
    case 'integer':
    case 'string':
      return type;
    default:
      return 'json';
  }
}

/** A short, readable type: `string (uuid)`, `integer`, `array of string`, `one of: a, b`. */
export function describeType(schema: JsonSchema, root: JsonSchema): string {
  const resolved = resolveSchema(schema, root);
  const values = enumValues(resolved);
  if (values) return `one of: ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  const type = Array.isArray(resolved.type) ? resolved.type.join(' or ') : mainType(resolved);
  if (type === 'array' && resolved.items) return `array of ${describeType(resolved.items, root)}`;
  if (!type) return resolved.anyOf || resolved.oneOf ? 'one of several shapes' : 'any';
  return resolved.format ? `${type} (${resolved.format})` : type;
}

/** The constraints of a value, in words: `at most 100`, `2 to 120 characters`. */
export function describeConstraints(schema: JsonSchema): string[] {
  const words: string[] = [];
  if (schema.minimum !== undefined) words.push(`at least ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) words.push(`more than ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) words.push(`at most ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) words.push(`less than ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) words.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) words.push(`at most ${schema.maxLength} characters`);
  if (schema.minItems !== undefined) words.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) words.push(`at most ${schema.maxItems} items`);
  // A format (uuid, email) says in a word what its pattern says in fifty characters.
  if (schema.pattern !== undefined && !schema.format) words.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) words.push(`default ${JSON.stringify(schema.default)}`);
  return words;
}

/** A JSON pointer from path segments: `["items", 0, "name"]` → `/items/0/name`. */
export function pointerOf(path: (string | number)[]): string {
  return path
    .map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/** The field name a message starts with: the last named segment of the path. */
function fieldName(path: (string | number)[]): string {
  return path.map(String).join('.') || 'arguments';
}

/**
 * What the schema refuses in a value, before it is sent: keyed by JSON pointer, each message
 * naming the field ("limit: must be at most 100").
 */
export function checkValue(
  schema: JsonSchema,
  root: JsonSchema,
  value: unknown,
  path: (string | number)[] = [],
  issues: Record<string, string> = {},
): Record<string, string> {
  const resolved = resolveSchema(schema, root);
  const say = (message: string) => (issues[pointerOf(path)] ??= `${fieldName(path)}: ${message}`);
  if (value === undefined) return issues;
  const values = enumValues(resolved);
  if (values && !values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    say(`must be one of ${values.map((allowed) => JSON.stringify(allowed)).join(', ')}`);
  }
  const type = mainType(resolved);
  if (typeof value === 'number') {
    if (type === 'integer' && !Number.isInteger(value)) say('must be a whole number');
    if (resolved.minimum !== undefined && value < resolved.minimum)
      say(`must be at least ${resolved.minimum}`);
    if (resolved.maximum !== undefined && value > resolved.maximum)
      say(`must be at most ${resolved.maximum}`);
    if (resolved.exclusiveMinimum !== undefined && value <= resolved.exclusiveMinimum)
      say(`must be more than ${resolved.exclusiveMinimum}`);
    if (resolved.exclusiveMaximum !== undefined && value >= resolved.exclusiveMaximum)
      say(`must be less than ${resolved.exclusiveMaximum}`);
  } else if (typeof value === 'string') {
    if (resolved.minLength !== undefined && value.length < resolved.minLength)
      say(`must be at least ${resolved.minLength} characters`);
    if (resolved.maxLength !== undefined && value.length > resolved.maxLength)
      say(`must be at most ${resolved.maxLength} characters`);
    if (resolved.pattern !== undefined && !safeTest(resolved.pattern, value))
      say(`must match ${resolved.pattern}`);
  } else if (Array.isArray(value)) {
    if (resolved.minItems !== undefined && value.length < resolved.minItems)
      say(`must have at least ${resolved.minItems} items`);
    if (resolved.maxItems !== undefined && value.length > resolved.maxItems)
      say(`must have at most ${resolved.maxItems} items`);
    value.forEach((item, index) =>
      checkValue(resolved.items ?? {}, root, item, [...path, index], issues),
    );
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of resolved.required ?? []) {
      if (object[name] === undefined)
        issues[pointerOf([...path, name])] ??= `${fieldName([...path, name])}: is required`;
    }
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      checkValue(property, root, object[name], [...path, name], issues);
    }
  }
  return issues;
}

/** A server's pattern may not compile in the browser: then the server decides. */
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/** The value a new form starts with: the defaults the schema gives. */
export function initialValue(schema: JsonSchema, root: JsonSchema): unknown {
  const resolved = resolveSchema(schema, root);
  if (resolved.default !== undefined) return resolved.default;
  if (fieldKind(resolved) === 'object') {
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      const initial = initialValue(property, root);
      if (initial !== undefined) value[name] = initial;
    }
    return value;
  }
  return undefined;
}
