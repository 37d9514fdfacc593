import { escapePointer } from '../utils/json-pointer.util.js';
import { isPlainObject, sameJson } from '../utils/value-checks.util.js';
import { sortKeys } from './server-contract.builder.js';

/**
 * TypeScript declarations of JSON Schemas (2020-12), for code that handles what a tool
 * takes and returns (`nestjs-mcp app-types`). It covers what this library publishes for
 * DTOs: `type` (and lists of types), `properties`, `required`, `additionalProperties`,
 * `items`, `enum`, `const`, `anyOf`, `oneOf`, `allOf` and local `$ref`s into `$defs`.
 * Whatever it cannot express becomes `unknown`: a declaration may be looser than the
 * schema, never stricter, so that a value the server accepts always type-checks.
 */

/** One exported declaration: a name and the schema it describes. */
export interface TypeDeclaration {
  /** An identifier not yet taken in the file (see {@link TypeScriptDeclarations.uniqueName}). */
  readonly name: string;
  /** The schema, with its own `$defs`; `undefined` and `true` stand for any value. */
  readonly schema: unknown;
  /** The declaration's JSDoc, before the schema's own `description`. */
  readonly doc?: readonly string[];
}

/** A type's text, and whether it needs parentheses inside `[]`, `&` or `|`. */
interface TsType {
  readonly text: string;
  readonly kind: 'atom' | 'union' | 'intersection';
}

/** What a `$ref` of the schema being written may name. */
interface Scope {
  readonly refs: ReadonlyMap<string, string>;
}

const UNKNOWN: TsType = { text: 'unknown', kind: 'atom' };
const NEVER: TsType = { text: 'never', kind: 'atom' };
const atom = (text: string): TsType => ({ text, kind: 'atom' });

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const INDENT = '  ';

/**
 * The declarations of one file. Definitions (`$defs`) become declarations of their own,
 * named after their key; a definition that several schemas share (the same DTO in two
 * tools) is declared once, and one that differs under a taken name is prefixed with the
 * name of the declaration that first used it.
 */
export class TypeScriptDeclarations {
  private readonly taken = new Set<string>();
  private readonly shared = new Map<string, string>();
  private readonly blocks: string[] = [];

  /** `base`, or `base2`, `base3`... when taken; the name is then taken. */
  uniqueName(base: string): string {
    let name = toIdentifier(base);
    for (let n = 2; this.taken.has(name); n++) name = `${toIdentifier(base)}${n}`;
    this.taken.add(name);
    return name;
  }

  /** Appends text written by the caller (a map of the declarations, say) as it is. */
  append(text: string): void {
    this.blocks.push(text);
  }

  /** Declares `name` for the schema, then each definition it reaches that is new. */
  declare({ name, schema, doc = [] }: TypeDeclaration): void {
    this.taken.add(name);
    const defs = definitionsOf(schema);
    const reached = reachableDefinitions(schema, defs);
    // `#` is the root: a definition that refers to it belongs to this declaration alone.
    const refs = new Map<string, string>([['#', name]]);
    const fresh: string[] = [];
    for (const key of reached) {
      const closure = JSON.stringify(sortKeys(closureOf(key, defs)));
      const identity = closure.includes('"$ref":"#"') ? `${name}\u0000${closure}` : closure;
      let defName = this.shared.get(identity);
      if (defName === undefined) {
        const base = toIdentifier(key.replace(/_\d+$/, ''));
        defName = this.uniqueName(this.taken.has(base) ? `${name}${base}` : base);
        this.shared.set(identity, defName);
        fresh.push(key);
      }
      for (const ref of refsTo(key)) refs.set(ref, defName);
    }
    const scope: Scope = { refs };
    this.blocks.push(declaration(name, schema, doc, scope));
    for (const key of fresh) {
      this.blocks.push(declaration(refs.get(refsTo(key)[0]!)!, defs[key], [], scope));
    }
  }

  /** The declarations, one blank line apart, in the order they were declared. */
  render(): string {
    return `${this.blocks.join('\n\n')}\n`;
  }
}

/**
 * `export type`, with its JSDoc. Never an interface: an interface has no implicit index
 * signature, so arguments declared by one would not fit the `Record<string, unknown>` of
 * `callServerTool({ name, arguments })`.
 */
function declaration(name: string, schema: unknown, doc: readonly string[], scope: Scope): string {
  const type = typeOf(schema, scope, 0);
  const description = isPlainObject(schema) ? annotations(schema) : [];
  const comment = jsDoc(
    [...doc, ...(doc.length > 0 && description.length > 0 ? [''] : []), ...description],
    '',
  );
  return `${comment}export type ${name} = ${type.text};`;
}

/** The TypeScript type of a schema, its object types indented for `depth`. */
function typeOf(schema: unknown, scope: Scope, depth: number): TsType {
  if (schema === undefined || schema === true) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isPlainObject(schema)) return UNKNOWN;
  const parts: TsType[] = [literalsOf(schema) ?? baseType(schema, scope, depth)];
  if (typeof schema.$ref === 'string') parts.push(refType(schema.$ref, scope));
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = schema[keyword];
    if (Array.isArray(members)) {
      parts.push(union(members.map((member) => typeOf(member, scope, depth))));
    }
  }
  if (Array.isArray(schema.allOf)) {
    parts.push(...schema.allOf.map((member) => typeOf(member, scope, depth)));
  }
  return intersection(parts);
}

/** The type of `type` (and `properties` or `items` under it); `unknown` without one. */
function baseType(schema: Record<string, unknown>, scope: Scope, depth: number): TsType {
  const names = typeNames(schema.type);
  if (names === undefined) return UNKNOWN;
  return union(
    names.map((name) => {
      if (name === 'string' || name === 'boolean' || name === 'null') return atom(name);
      if (name === 'number' || name === 'integer') return atom('number');
      if (name === 'array') return arrayType(schema, scope, depth);
      return objectType(schema, scope, depth);
    }),
  );
}

/** The names of a `type` keyword; `undefined` when it is absent or names no JSON type. */
function typeNames(type: unknown): string[] | undefined {
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (!names || names.length === 0) return undefined;
  return names.every((name) => TYPE_NAMES.has(name as string)) ? (names as string[]) : undefined;
}

function arrayType(schema: Record<string, unknown>, scope: Scope, depth: number): TsType {
  // Tuples (`prefixItems`, or the old array form of `items`) are not written out: a tuple
  // type would be wrong about the items a shorter array may leave out.
  if ('prefixItems' in schema || Array.isArray(schema.items)) return atom('unknown[]');
  const item = typeOf(schema.items, scope, depth);
  return atom(item.kind === 'atom' ? `${item.text}[]` : `(${item.text})[]`);
}

function objectType(schema: Record<string, unknown>, scope: Scope, depth: number): TsType {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const inner = INDENT.repeat(depth + 1);
  const lines: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const type = typeOf(property, scope, depth + 1);
    const doc = isPlainObject(property) ? jsDoc(annotations(property), inner) : '';
    const optional = required.has(name) ? '' : '?';
    lines.push(`${doc}${inner}${propertyName(name)}${optional}: ${type.text};`);
  }
  // A required name without a schema of its own must still be there, with any value.
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) lines.push(`${inner}${propertyName(name)}: unknown;`);
  }
  const extra = extraProperties(schema, scope, depth, lines.length > 0);
  if (extra) lines.push(`${inner}[key: string]: ${extra.text};`);
  if (lines.length === 0) return atom('Record<string, never>');
  return atom(`{\n${lines.join('\n')}\n${INDENT.repeat(depth)}}`);
}

/**
 * The type of the properties `properties` does not name: none with `additionalProperties:
 * false` (and no `patternProperties`); next to named properties, `unknown` (an index
 * signature must admit the type of every named property too).
 */
function extraProperties(
  schema: Record<string, unknown>,
  scope: Scope,
  depth: number,
  named: boolean,
): TsType | undefined {
  const additional = schema.additionalProperties;
  if (additional === false && !('patternProperties' in schema)) return undefined;
  if (named || 'patternProperties' in schema) return UNKNOWN;
  return typeOf(additional, scope, depth);
}

function refType(ref: string, scope: Scope): TsType {
  const name = scope.refs.get(ref);
  return name === undefined ? UNKNOWN : atom(name);
}

/** `const` or `enum` as a union of literals (those of the `type` given), or `undefined`. */
function literalsOf(schema: Record<string, unknown>): TsType | undefined {
  const allowed = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  let values: unknown[];
  // With both, a value must be the constant and one of the enum.
  if ('const' in schema) {
    values = [schema.const].filter((value) => !allowed || allowed.some((v) => sameJson(v, value)));
  } else if (allowed) values = allowed;
  else return undefined;
  const names = typeNames(schema.type);
  if (names)
    values = values.filter(
      (value) =>
        names.includes(jsonTypeOf(value)) ||
        (names.includes('number') && jsonTypeOf(value) === 'integer'),
    );
  const literals: TsType[] = [];
  for (const value of values) {
    const literal = literalOf(value);
    if (literal === undefined) return UNKNOWN;
    literals.push(atom(literal));
  }
  return union(literals);
}

/** The JSON type name of a value, `integer` for whole numbers. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A literal type for a primitive JSON value; objects and arrays have none here. */
function literalOf(value: unknown): string | undefined {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' && Number.isFinite(value))
    return String(Object.is(value, -0) ? 0 : value);
  if (typeof value === 'boolean' || value === null) return String(value);
  return undefined;
}

/** Members of a union: `unknown` absorbs them all, `never` drops out, repeats count once. */
function union(members: readonly TsType[]): TsType {
  if (members.some((member) => member.text === 'unknown')) return UNKNOWN;
  return combine(
    members.filter((member) => member.text !== 'never'),
    'union',
    NEVER,
  );
}

/** Parts that all hold: `unknown` drops out, `never` absorbs them all. */
function intersection(parts: readonly TsType[]): TsType {
  if (parts.some((part) => part.text === 'never')) return NEVER;
  return combine(
    parts.filter((part) => part.text !== 'unknown'),
    'intersection',
    UNKNOWN,
  );
}

/** The members joined by `|` or `&` (each once, in parentheses where needed). */
function combine(members: readonly TsType[], kind: TsType['kind'], none: TsType): TsType {
  const distinct = members.filter(
    (member, index) => members.findIndex((other) => other.text === member.text) === index,
  );
  if (distinct.length === 0) return none;
  if (distinct.length === 1) return distinct[0]!;
  // A union inside an intersection (or the reverse) keeps its own grouping.
  const texts = distinct.map((member) =>
    member.kind === 'atom' || member.kind === kind ? member.text : `(${member.text})`,
  );
  return { text: texts.join(kind === 'union' ? ' | ' : ' & '), kind };
}

/** The JSDoc lines of a schema: its description, format, default and deprecation. */
function annotations(schema: Record<string, unknown>): string[] {
  const lines: string[] = [];
  if (typeof schema.description === 'string' && schema.description.trim() !== '') {
    lines.push(...schema.description.trim().split(/\r?\n/));
  }
  if (typeof schema.format === 'string') lines.push(`@format ${schema.format}`);
  if ('default' in schema) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push('@deprecated');
  return lines;
}

/** A JSDoc comment (one line when it fits), ending with a line break; `''` for no lines. */
function jsDoc(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return '';
  // `*/` would end the comment early.
  const safe = lines.map((line) => line.replaceAll('*/', '*\\/').trimEnd());
  if (safe.length === 1 && indent.length + safe[0]!.length + 7 <= 100) {
    return `${indent}/** ${safe[0]} */\n`;
  }
  const body = safe.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`));
  return `${indent}/**\n${body.join('\n')}\n${indent} */\n`;
}

/** A property name as it is when it is an identifier, quoted otherwise. */
const propertyName = (name: string): string => (IDENTIFIER.test(name) ? name : quote(name));

/** A single-quoted TypeScript string literal (JSON's escapes, quotes swapped). */
export function quote(text: string): string {
  const inner = JSON.stringify(text)
    .slice(1, -1)
    .replaceAll(/\\.|'/g, (match) => (match === "'" ? "\\'" : match === '\\"' ? '"' : match));
  return `'${inner}'`;
}

/** An identifier made of `text`: other characters become `_`, a leading digit gets one. */
function toIdentifier(text: string): string {
  const cleaned = text.replaceAll(/[^\w$]/g, '_');
  return /^[A-Za-z_$]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** The `$defs` (or draft-07 `definitions`) of a root schema. */
function definitionsOf(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema)) return {};
  const defs = schema.$defs ?? schema.definitions;
  return isPlainObject(defs) ? defs : {};
}

/** The ways a `$ref` may write the definition `key`. */
const refsTo = (key: string): string[] => [
  ...new Set([
    `#/$defs/${escapePointer(key)}`,
    `#/$defs/${key}`,
    `#/definitions/${escapePointer(key)}`,
  ]),
];

/** The definitions a schema's `$ref`s reach, directly or through other definitions. */
function reachableDefinitions(schema: unknown, defs: Record<string, unknown>): string[] {
  const keyOf = new Map(Object.keys(defs).flatMap((key) => refsTo(key).map((ref) => [ref, key])));
  const reached: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [keyword, child] of Object.entries(value)) {
      // The definitions count only when something refers to them.
      if (keyword === '$defs' || keyword === 'definitions') continue;
      if (keyword === '$ref' && typeof child === 'string') {
        const key = keyOf.get(child);
        if (key !== undefined && !reached.includes(key)) {
          reached.push(key);
          visit(defs[key]);
        }
      } else visit(child);
    }
  };
  visit(schema);
  return reached;
}

/** A definition with every definition it reaches: what makes two of them the same type. */
function closureOf(key: string, defs: Record<string, unknown>): Record<string, unknown> {
  const closure: Record<string, unknown> = { [key]: defs[key] };
  for (const other of reachableDefinitions(defs[key], defs)) closure[other] = defs[other];
  // The key is kept apart, as the same definitions make another type from another start.
  return { start: key, closure };
}
