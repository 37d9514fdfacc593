/** A JSON Schema object, as tools/list carries it. */
type Schema = Record<string, any>;

/** One property of an object schema, in words. */
export interface PropertySummary {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  /** Constraints and the default, e.g. `1..50`, `default 10`, `pattern ^[A-Z]{3}$`. */
  readonly constraints: string;
  readonly description: string;
}

/** The properties of an object schema (a tool's input or output), for a table. */
export function summarizeProperties(schema: Schema | undefined): PropertySummary[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeName(property),
    required: required.has(name),
    constraints: constraintsOf(property).join(', '),
    description: typeof property.description === 'string' ? property.description : '',
  }));
}

/** A short type: `string`, `integer[]`, `books | garden`, `Address`, `string | null`. */
export function typeName(schema: Schema | boolean | undefined): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'never';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.map((member: Schema) => typeName(member)).join(' | ');
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? schema.$ref;
  const types: string[] = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return types.map((type) => (type === 'array' ? `${typeName(schema.items)}[]` : type)).join(' | ');
}

function constraintsOf(schema: Schema): string[] {
  const notes: string[] = [];
  const numbers = range(
    schema.minimum ?? schema.exclusiveMinimum,
    schema.maximum ?? schema.exclusiveMaximum,
    schema.minimum === undefined && schema.exclusiveMinimum !== undefined,
    schema.maximum === undefined && schema.exclusiveMaximum !== undefined,
  );
  if (numbers) notes.push(numbers);
  const length = range(schema.minLength, schema.maxLength);
  if (length) notes.push(`length ${length}`);
  const items = range(schema.minItems, schema.maxItems);
  if (items) notes.push(`${items} items`);
  if (schema.uniqueItems) notes.push('unique');
  // A format says more than the pattern that checks it (uuid, email), in fewer characters.
  if (typeof schema.format === 'string') notes.push(`format ${schema.format}`);
  else if (typeof schema.pattern === 'string') notes.push(`pattern ${shorten(schema.pattern, 40)}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** `1..50`, `>= 0`, `< 10`: a closed range short, open or one-sided bounds spelled out. */
function range(low: unknown, high: unknown, lowOpen = false, highOpen = false): string | undefined {
  if (low === undefined && high === undefined) return undefined;
  if (low === undefined) return `${highOpen ? '<' : '<='} ${high}`;
  if (high === undefined) return `${lowOpen ? '>' : '>='} ${low}`;
  return lowOpen || highOpen
    ? `${lowOpen ? '>' : '>='} ${low}, ${highOpen ? '<' : '<='} ${high}`
    : `${low}..${high}`;
}

function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
