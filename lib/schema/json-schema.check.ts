import type { ErrorObject } from 'ajv';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { escapePointer, pointerSegments as segmentsOf } from '../utils/json-pointer.util.js';
import { sameJson } from '../utils/value-checks.util.js';
import { compileWithAjv, type AjvCheck } from './json-schema.engine.js';

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
 * A check of a schema with the MCP SDK's validator, Ajv in its 2020-12 dialect with
 * formats (json-schema.engine.ts), the engine clients use to check what they are shown.
 * It is compiled once, on its first use: compiling every tool's schema up front was two
 * thirds of the bootstrap of an app with 1,000 tools (bench/README.md), most of which may
 * never be called.
 * @param subject What to call the value itself in messages ("the arguments", "the result").
 */
export function compileJsonSchema(schema: JsonSchema, subject = 'the value'): JsonSchemaCheck {
  let check: AjvCheck | undefined;
  return (value) => {
    check ??= compileWithAjv(schema);
    const errors = check(value);
    return errors ? explainSchemaFailure(schema, value, errors, subject) : [];
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

const isAtOrBelow = (path: string, ancestor: string) =>
  path === ancestor || path.startsWith(`${ancestor}/`);

/** The keyword an issue names: Ajv's, except its "false schema" (`false` as a schema). */
const keywordOf = (error: ErrorObject): string =>
  error.keyword === 'false schema' ? 'false' : error.keyword;

/** A string parameter of an Ajv error (`missingProperty`, `additionalProperty`, ...). */
const param = (error: ErrorObject, name: string): string | undefined => {
  const found: unknown = (error.params as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
};

/**
 * Turns Ajv's errors into issues a model can act on: each at a JSON Pointer,
 * the missing property at its own path, each unknown property named, the allowed values of
 * an `enum` or `const` listed, and a `null` sent for an optional property that the schema
 * lists without null told to be left out. Noise from alternatives is dropped: the summary
 * of an `anyOf`/`oneOf` and the "must be null" of a nullable value when a more precise
 * issue exists, and the `const` of a `oneOf` branch the value did not choose. Ajv's own
 * words are kept only as the tail of a message (`must NOT have fewer than 3 characters`);
 * what an issue is and where comes from its error object.
 */
export function explainSchemaFailure(
  schema: JsonSchema,
  value: unknown,
  errors: readonly ErrorObject[],
  subject = 'the value',
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  // "must be null" of the null branch of a nullable value: noise when more is said there.
  const nullBranches = new Set<SchemaIssue>();
  for (const error of errors) {
    const path = error.instancePath;
    const keyword = keywordOf(error);
    const label = labelOf(path, subject);
    if (keyword === 'required') {
      const property = param(error, 'missingProperty') ?? '';
      const at = `${path}/${escapePointer(property)}`;
      issues.push({ path: at, keyword, message: `${property} is required` });
    } else if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
      const key = param(
        error,
        keyword === 'additionalProperties' ? 'additionalProperty' : 'unevaluatedProperty',
      );
      issues.push(...unknownPropertyIssues(schema, value, error, key, label));
    } else if (keyword === 'enum' || keyword === 'const') {
      const allowed = listedValues(schema, path);
      const actual = valueAt(value, segmentsOf(path));
      // A value one branch lists failed another branch of a oneOf: not the problem.
      if (allowed.some((candidate) => sameJson(candidate, actual))) continue;
      const text =
        allowed.length === 1
          ? `${label} must be ${renderValues(allowed)}`
          : `${label} must be one of ${renderValues(allowed)}`;
      issues.push({ path, keyword, message: text, allowed });
    } else if (keyword === 'type') {
      const expected: unknown = (error.params as { type?: unknown }).type;
      const types = Array.isArray(expected) ? expected.map(String) : String(expected).split(',');
      const issue = { path, keyword, message: `${label} must be ${types.join(' or ')}` };
      if (types.length === 1 && types[0] === 'null') nullBranches.add(issue);
      issues.push(issue);
    } else {
      issues.push({ path, keyword, message: `${label} ${error.message ?? `fails "${keyword}"`}` });
    }
  }
  // Ajv reports a failure with at least one error; never let a failed check pass.
  if (errors.length === 0) {
    issues.push({ path: '', keyword: 'schema', message: `${subject} does not match its schema` });
  }
  const explained = refuseOptionalNulls(schema, value, mergeLists(issues));
  return withoutNoise(narrowToChosenBranches(schema, value, explained), nullBranches);
}

/**
 * Whether the value at `path` is a `null` given for a property that every object declaring
 * it leaves optional: the schema then lists the property without null (the default of
 * `schema.nullableOptionals`), and the way to give no value is to leave it out.
 */
function isOptionalNull(root: JsonSchema, value: unknown, path: string): boolean {
  if (path === '' || valueAt(value, segmentsOf(path)) !== null) return false;
  const parentPath = path.slice(0, path.lastIndexOf('/'));
  const parent = valueAt(value, segmentsOf(parentPath));
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return false;
  const name = segmentsOf(path).at(-1) as string;
  const declaring = subschemasAt(root, parentPath).filter(
    (candidate) => candidate.properties !== undefined && Object.hasOwn(candidate.properties, name),
  );
  return (
    declaring.length > 0 && declaring.every((candidate) => !candidate.required?.includes(name))
  );
}

/** Every issue about a `null` sent for an optional property, as one that says what to do. */
function refuseOptionalNulls(
  root: JsonSchema,
  value: unknown,
  issues: SchemaIssue[],
): SchemaIssue[] {
  const refused = new Set<string>();
  return issues.flatMap((issue) => {
    if (issue.keyword === 'required' || !isOptionalNull(root, value, issue.path)) return [issue];
    if (refused.has(issue.path)) return [];
    refused.add(issue.path);
    const label = labelOf(issue.path, 'the value');
    const message = `${label} cannot be null: it is optional, so leave it out instead of sending null`;
    return [{ path: issue.path, keyword: 'type', message }];
  });
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

/**
 * The unknown properties of the object at the error's path, each named with the properties
 * that are allowed there. Ajv reports a key once per closed schema that does not declare
 * it, so a key another branch declares is not unknown.
 */
function unknownPropertyIssues(
  schema: JsonSchema,
  value: unknown,
  error: ErrorObject,
  key: string | undefined,
  label: string,
): SchemaIssue[] {
  const path = error.instancePath;
  const keyword = keywordOf(error);
  const closed = subschemasAt(schema, path).filter(
    (candidate) => candidate.properties !== undefined && candidate.additionalProperties === false,
  );
  const actual = valueAt(value, segmentsOf(path));
  if (closed.length === 0 || actual === null || typeof actual !== 'object' || key === undefined) {
    return [{ path, keyword, message: `${label} ${error.message ?? 'has an unknown property'}` }];
  }
  const known = new Set(closed.flatMap((candidate) => Object.keys(candidate.properties ?? {})));
  if (known.has(key)) return [];
  const names = [...known].join(', ') || '(none)';
  return [
    {
      path: `${path}/${escapePointer(key)}`,
      keyword,
      message: `property "${key}" is not allowed; allowed properties: ${names}`,
    },
  ];
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

function withoutNoise(
  issues: SchemaIssue[],
  nullBranches: ReadonlySet<SchemaIssue>,
): SchemaIssue[] {
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
    if (nullBranches.has(issue)) return !hasOther(issue);
    // "must be one of 1, 2" says all that "must be integer" says, and more.
    return !samePlace(issue, 'enum', 'const');
  });
}
