import type { ArgumentIssue } from '../interfaces/argument-issue.interface.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { compileJsonSchema, type SchemaIssue } from '../schema/json-schema.check.js';
import { readPipeSchema } from '../schema/pipe-schema.reader.js';
import { isUserClass } from '../utils/built-in-types.js';
import { escapePointer, pointerSegments } from '../utils/json-pointer.util.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { ArgumentsCheck } from './discovered-method.interface.js';
import { RouteArguments } from './route-arguments.js';
import type { RouteArgumentSource } from './route-parameters.reader.js';

/** The merged schema has been checked already; each DTO is then checked by class-validator alone. */
const ALREADY_CHECKED = (): SchemaIssue[] => [];

/** Whether one path is the other or inside it: both then speak of the same value. */
const overlaps = (a: string, b: string): boolean => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const rest = pointerSegments(long);
  return pointerSegments(short).every((segment, index) => rest[index] === segment);
};

const fromSchemaIssue = ({ path, keyword, message, allowed }: SchemaIssue): ArgumentIssue => ({
  path,
  constraint: keyword,
  message,
  ...(allowed && { allowed: [...allowed] }),
});

/**
 * The arguments check of a route tool: the flat arguments against the merged schema,
 * then each DTO (`@Body() dto`, a named value typed as a class, a DTO of `ParseArrayPipe`
 * items is left to the pipe) through class-validator with its own slice, as for any tool.
 * A valid call gets a {@link RouteArguments}: the values split back into path parameters,
 * query and body, which the params factory hands to the route's parameters, whose pipes
 * then run as over HTTP. class-validator's messages win where both checks found a problem.
 */
export function routeArgumentsCheck(
  validator: DtoArgumentsValidator,
  sources: readonly RouteArgumentSource[],
  properties: ReadonlyMap<RouteArgumentSource, readonly string[]>,
  schema: JsonSchema,
): ArgumentsCheck {
  // Compiled on the first call (compileJsonSchema), then reused.
  const schemaCheck = compileJsonSchema(schema, 'the arguments');
  return async (args) => {
    const schemaIssues = schemaCheck(args);
    const issues: ArgumentIssue[] = [];
    const value = new RouteArguments();
    for (const source of sources) {
      if (source.name === undefined) {
        const slice: Record<string, unknown> = {};
        for (const name of properties.get(source) ?? []) {
          if (Object.hasOwn(args, name)) slice[name] = args[name];
        }
        const checked = await validator.validate(source.type as never, slice, ALREADY_CHECKED);
        if (checked.ok) value.setWhole(source.paramtype, checked.value as object);
        else issues.push(...checked.issues);
        continue;
      }
      const given = args[source.name];
      if (given !== undefined && isUserClass(source.type) && !readPipeSchema(source.pipes).schema) {
        // A named value typed as a DTO (`@Body('address') address: AddressDto`).
        const checked = await validator.validate(source.type as never, given, ALREADY_CHECKED);
        if (checked.ok) value.setNamed(source.paramtype, source.name, checked.value);
        else issues.push(...checked.issues.map((issue) => withParent(issue, source.name!)));
        continue;
      }
      value.setNamed(source.paramtype, source.name, given);
    }
    const explained = issues.map((issue) => issue.path);
    for (const issue of schemaIssues) {
      if (!explained.some((path) => overlaps(path, issue.path)))
        issues.push(fromSchemaIssue(issue));
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
  };
}

const withParent = (issue: ArgumentIssue, name: string): ArgumentIssue => ({
  ...issue,
  path: `/${escapePointer(name)}${issue.path}`,
});
