import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import { escapePointer, pointerSegments as segmentsOf } from '../utils/json-pointer.util.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';

/** One reason a value failed a JSON Schema, located by a JSON Pointer. */
export interface SchemaIssue {
  /** JSON Pointer (RFC 6901) to the offending value; "" for the value itself. */
  readonly path: string;
  /** The JSON Schema keyword that failed: `type`, `enum`, `required`, `pattern`, ... */
  readonly keyword: string;
  readonly message: string;
  /** The values the schema allows here, where it lists them (`enum`, `const`). */
  readonly allowed?: readonly unknown[];
}

/** Checks a value against one compiled schema; no issues when it passes. */
export type JsonSchemaCheck = (value: unknown) => SchemaIssue[];

/**
 * A check of a schema with the MCP SDK's own validator, Ajv in its 2020-12 dialect with
 * formats, the engine clients use to check what they are shown. It is compiled once, on
 * its first use: compiling every tool's schema up front was two thirds of the bootstrap of
 * an app with 1,000 tools (bench/README.md), most of which may never be called.
 * @param subject What to call the value itself in messages ("the arguments", "the result").
 */
export function compileJsonSchema(schema: JsonSchema, subject = 'the value'): JsonSchemaCheck {
  let standard: ReturnType<typeof fromJsonSchema>['~standard'] | undefined;
  return (value) => {
    standard ??= fromJsonSchema(schema as JsonSchemaType)['~standard'];
    const result = standard.validate(value);
    // The SDK's JSON Schema adapter is synchronous (Ajv compiles to plain functions).
    if (result instanceof Promise) throw new TypeError('Expected a synchronous JSON Schema check');
    if (!result.issues) return [];
    const message = result.issues.map((issue) => issue.message).join(', ');
    return explainSchemaFailure(schema, value, message, subject);
  };
}

/** How many listed values a message shows before "… and N more". */
const SHOWN_VALUES = 20;

/** `"red", "blue"` or `1, 2`: values as JSON, so that the model sees their types. */
export function renderValues(values: readonly unknown[]): string {
  const shown = values.slice(0, SHOWN_VALUES).map((value) => JSON.stringify(value));
  const rest = values.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} … and ${rest} more` : shown.join(', ');
}

interface RawIssue {
  path: string;
  message: string;
}

// The SDK's Standard Schema adapter reports one message, Ajv's `errorsText()`: every error
// as `data<instancePath> <message>`, joined by ", ". Ajv's messages are fixed English
// texts that start with "must" (or "boolean schema is false"), which is what the split
// relies on. A property name with a space or ", data" in it would blur a boundary; the
// issue then still names the failure, at a less precise place.
const ERROR_BOUNDARY = /, (?=data(?:\/\S*)? (?:must |boolean schema))/;
const ERROR_PARTS = /^data((?:\/\S*)?) ([\s\S]*)$/;

/** @internal The errors of an Ajv `errorsText()` message, split and located. */
export function parseAjvMessage(text: string): RawIssue[] {
  return text.split(ERROR_BOUNDARY).map((part) => {
    const match = ERROR_PARTS.exec(part);
    return match ? { path: match[1], message: match[2] } : { path: '', message: part };
  });
}

const KEYWORD_OF_MESSAGE: ReadonlyArray<[RegExp, string | ((m: RegExpExecArray) => string)]> = [
  [/^must have required property '/, 'required'],
  [/^must NOT have additional properties$/, 'additionalProperties'],
  [/^must NOT have unevaluated properties$/, 'unevaluatedProperties'],
  [/^must be equal to one of the allowed values$/, 'enum'],
  [/^must be equal to constant$/, 'const'],
  [/^must match format /, 'format'],
  [/^must match pattern /, 'pattern'],
  [/^must match a schema in anyOf$/, 'anyOf'],
  [/^must match exactly one schema in oneOf$/, 'oneOf'],
  [/^must NOT be valid$/, 'not'],
  [/^must NOT have duplicate items/, 'uniqueItems'],
  [/^must be multiple of /, 'multipleOf'],
  [
    /^must NOT have (more|fewer) than \d+ characters$/,
    (m) => (m[1] === 'more' ? 'maxLength' : 'minLength'),
  ],
  [
    /^must NOT have (more|fewer) than \d+ items$/,
    (m) => (m[1] === 'more' ? 'maxItems' : 'minItems'),
  ],
  [
    /^must be (>=|<=|>|<) /,
    (m) =>
      ({ '>=': 'minimum', '<=': 'maximum', '>': 'exclusiveMinimum', '<': 'exclusiveMaximum' })[
        m[1] as '>='
      ],
  ],
  [/^must be [a-z]+(,[a-z]+)*$/, 'type'],
  [/^boolean schema is false$/, 'false'],
];

const keywordOf = (message: string): string => {
  for (const [pattern, keyword] of KEYWORD_OF_MESSAGE) {
    const match = pattern.exec(message);
    if (match) return typeof keyword === 'string' ? keyword : keyword(match);
  }
  return 'schema';
};

const isIndex = (segment: string) => /^(0|[1-9]\d*)$/.test(segment);

/** "price", "tags[1]", or the subject for the value itself. */
function labelOf(path: string, subject: string): string {
  const segments = segmentsOf(path);
  const last = segments.at(-1);
  if (last === undefined) return subject;
  if (!isIndex(last)) return last;
  const parent = segments.at(-2);
  return `${parent === undefined ? subject : parent}[${last}]`;
}

const valueAt = (value: unknown, segments: readonly string[]): unknown => {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, segment)
      ? (current as Record<string, unknown>)[segment]
      : undefined;
  }
  return current;
};

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  const found = valueAt(root, segmentsOf(ref.slice(1)));
  return found !== null && typeof found === 'object' ? (found as JsonSchema) : undefined;
}

/** The schema and every schema it applies through `$ref`, `allOf`, `anyOf` and `oneOf`. */
function expand(root: JsonSchema, schema: JsonSchema, seen = new Set<JsonSchema>()): JsonSchema[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const found = [schema];
  const referenced = schema.$ref === undefined ? undefined : resolveRef(root, schema.$ref);
  if (referenced) found.push(...expand(root, referenced, seen));
  for (const branch of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    found.push(...expand(root, branch, seen));
  return found;
}

/** Every subschema that may apply to the value at `path`. */
function subschemasAt(root: JsonSchema, path: string): JsonSchema[] {
  let current = expand(root, root);
  for (const segment of segmentsOf(path)) {
    current = current.flatMap((schema) => {
      const next: JsonSchema[] = [];
      if (schema.properties && Object.hasOwn(schema.properties, segment))
        next.push(...expand(root, schema.properties[segment]));
      if (schema.items && isIndex(segment)) next.push(...expand(root, schema.items));
      return next;
    });
  }
  return current;
}

/** The values listed by `enum`/`const` wherever they apply at `path`. */
function listedValues(root: JsonSchema, path: string): unknown[] {
  const values: unknown[] = [];
  for (const schema of subschemasAt(root, path)) {
    if (schema.enum) values.push(...schema.enum);
    if ('const' in schema) values.push(schema.const);
  }
  return [...new Set(values)];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isAtOrBelow = (path: string, ancestor: string) =>
  path === ancestor || path.startsWith(`${ancestor}/`);

/**
 * @internal Turns Ajv's one-line failure into issues a model can act on: each at a JSON
 * Pointer, the missing property at its own path, each unknown property named, and the
 * allowed values of an `enum` or `const` listed. Noise from alternatives is dropped: the
 * summary of an `anyOf`/`oneOf` and the "must be null" of an optional value when a more
 * precise issue exists, and the `const` of a `oneOf` branch the value did not choose.
 */
export function explainSchemaFailure(
  schema: JsonSchema,
  value: unknown,
  message: string,
  subject = 'the value',
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const raw of parseAjvMessage(message)) {
    const keyword = keywordOf(raw.message);
    const label = labelOf(raw.path, subject);
    if (keyword === 'required') {
      const property = /'([\s\S]*)'$/.exec(raw.message)?.[1] ?? '';
      const path = `${raw.path}/${escapePointer(property)}`;
      issues.push({ path, keyword, message: `${property} is required` });
    } else if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
      issues.push(...unknownPropertyIssues(schema, value, raw, keyword, label));
    } else if (keyword === 'enum' || keyword === 'const') {
      const allowed = listedValues(schema, raw.path);
      const actual = valueAt(value, segmentsOf(raw.path));
      // A value one branch lists failed another branch of a oneOf: not the problem.
      if (allowed.some((candidate) => sameJson(candidate, actual))) continue;
      const text =
        allowed.length === 1
          ? `${label} must be ${renderValues(allowed)}`
          : `${label} must be one of ${renderValues(allowed)}`;
      issues.push({ path: raw.path, keyword, message: text, allowed });
    } else if (keyword === 'type') {
      const types = raw.message.slice('must be '.length).split(',');
      issues.push({ path: raw.path, keyword, message: `${label} must be ${types.join(' or ')}` });
    } else {
      issues.push({ path: raw.path, keyword, message: `${label} ${raw.message}` });
    }
  }
  return withoutNoise(narrowToChosenBranches(schema, value, mergeLists(issues)));
}

// Compiled on the first failure that needs them, once per branch.
const branchChecks = new WeakMap<JsonSchema, JsonSchemaCheck>();

/**
 * The branch of an `anyOf`/`oneOf` that the value means, when exactly one fits its kind:
 * `null` for the null branch, else the branch whose `const` properties (a discriminator)
 * the value carries. Ajv reports the failures of every branch; only the meant one helps.
 */
function chosenBranch(root: JsonSchema, branches: JsonSchema[], value: unknown) {
  const fitting = branches.filter((branch) => {
    const schemas = expand(root, branch);
    if (schemas.some((s) => s.type === 'null')) return value === null;
    if (value === null) return false;
    return schemas.every((s) =>
      Object.entries(s.properties ?? {}).every(
        ([key, property]) =>
          !('const' in property) ||
          (typeof value === 'object' &&
            sameJson((value as Record<string, unknown>)[key], property.const)),
      ),
    );
  });
  return fitting.length === 1 ? fitting[0] : undefined;
}

function narrowToChosenBranches(
  root: JsonSchema,
  value: unknown,
  issues: SchemaIssue[],
): SchemaIssue[] {
  let result = issues;
  for (const summary of issues.filter((i) => i.keyword === 'anyOf' || i.keyword === 'oneOf')) {
    const alternatives = subschemasAt(root, summary.path).find((s) => s[summary.keyword]);
    const branches = alternatives?.[summary.keyword] as JsonSchema[] | undefined;
    const actual = valueAt(value, segmentsOf(summary.path));
    const branch = branches && chosenBranch(root, branches, actual);
    if (!branch) continue;
    let check = branchChecks.get(branch);
    if (!check) {
      check = compileJsonSchema({ ...branch, ...(root.$defs && { $defs: root.$defs }) });
      branchChecks.set(branch, check);
    }
    const subject = labelOf(summary.path, 'the value');
    const precise = check(actual).map((issue) => ({
      ...issue,
      path: `${summary.path}${issue.path}`,
      message: issue.path === '' ? issue.message.replace(/^the value/, subject) : issue.message,
    }));
    if (precise.length === 0) continue;
    result = [...result.filter((issue) => !isAtOrBelow(issue.path, summary.path)), ...precise];
  }
  return result;
}

function unknownPropertyIssues(
  schema: JsonSchema,
  value: unknown,
  raw: RawIssue,
  keyword: string,
  label: string,
): SchemaIssue[] {
  const closed = subschemasAt(schema, raw.path).filter(
    (candidate) => candidate.properties !== undefined && candidate.additionalProperties === false,
  );
  const actual = valueAt(value, segmentsOf(raw.path));
  if (closed.length === 0 || actual === null || typeof actual !== 'object') {
    return [{ path: raw.path, keyword, message: `${label} ${raw.message}` }];
  }
  const known = new Set(closed.flatMap((candidate) => Object.keys(candidate.properties ?? {})));
  const names = [...known].join(', ') || '(none)';
  return Object.keys(actual)
    .filter((key) => !known.has(key))
    .map((key) => ({
      path: `${raw.path}/${escapePointer(key)}`,
      keyword,
      message: `property "${key}" is not allowed; allowed properties: ${names}`,
    }));
}

/** One issue per path and keyword (oneOf branches each report their own `const`). */
function mergeLists(issues: SchemaIssue[]): SchemaIssue[] {
  const byKey = new Map<string, SchemaIssue>();
  for (const issue of issues) {
    const key = `${issue.path}\u0000${issue.keyword}\u0000${issue.allowed ? '' : issue.message}`;
    if (!byKey.has(key)) byKey.set(key, issue);
  }
  return [...byKey.values()];
}

function withoutNoise(issues: SchemaIssue[]): SchemaIssue[] {
  const hasOther = (issue: SchemaIssue) =>
    issues.some(
      (other) =>
        other !== issue &&
        isAtOrBelow(other.path, issue.path) &&
        other.keyword !== 'anyOf' &&
        other.keyword !== 'oneOf',
    );
  const samePlace = (issue: SchemaIssue, ...keywords: string[]) =>
    issues.some((other) => other.path === issue.path && keywords.includes(other.keyword));
  return issues.filter((issue) => {
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') return !hasOther(issue);
    // A format ("date-time") says what a pattern that narrows it says, in words.
    if (issue.keyword === 'pattern') return !samePlace(issue, 'format');
    if (issue.keyword !== 'type') return true;
    if (issue.message.endsWith(' must be null')) return !hasOther(issue);
    // "must be one of 1, 2" says all that "must be integer" says, and more.
    return !samePlace(issue, 'enum', 'const');
  });
}
