import { plainToInstance, type ClassTransformOptions, type TargetMap } from 'class-transformer';
import { validate, ValidationTypes, type ValidationError } from 'class-validator';
import {
  getDtoProperties,
  resolveNestedTarget,
  validatorNameOf,
} from '../schema/dto-metadata.reader.js';
import {
  renderValues,
  type JsonSchemaCheck,
  type SchemaIssue,
} from '../schema/json-schema.check.js';
import { enumValues, isInValues } from '../schema/value-constraint.converters.js';
import type { ArgumentIssue } from '../interfaces/argument-issue.interface.js';
import { escapePointer, pointerSegments } from '../utils/json-pointer.util.js';
import { isPlainObject } from '../utils/value-checks.util.js';
import { withIssueDetails } from './argument-issue.details.js';
import { DtoOwnSchemaChecks } from './dto-own-schema.checks.js';

export type ArgumentsValidation<T> =
  { ok: true; value: T } | { ok: false; issues: ArgumentIssue[] };

// The same rules the JSON Schema states: unknown properties are an error, not dropped,
// and a nested value that is not a DTO instance is rejected.
const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};

/** What the validator needs to know of one DTO class, read once from its metadata. */
interface DtoShape {
  /** Every declared property → the DTO class `@ValidateNested()` leads to, if any. */
  readonly properties: ReadonlyMap<string, Function | undefined>;
  /** Nested classes the schema found through `design:type` only (no `@Type()`). */
  readonly designTypeFallbacks: Readonly<Record<string, Function>>;
  /** property → constraint (`isEnum`, `isIn`) → the values it lists, for messages. */
  readonly lists: ReadonlyMap<string, ReadonlyMap<string, ListedRule>>;
  /** A `@Type()` discriminator, which makes class-transformer edit the plain object. */
  readonly hasDiscriminator: boolean;
  /** property → constraint → its rule's arguments and options, for translated messages. */
  readonly rules: ReadonlyMap<string, ReadonlyMap<string, RuleArguments>>;
}

interface RuleArguments {
  readonly constraints: readonly unknown[];
  readonly customMessage: boolean;
  readonly each: boolean;
}

interface ListedRule {
  readonly values: unknown[];
  /** The rule has its own `message`, which is then kept as written. */
  readonly customMessage: boolean;
}

const LIST_VALUES: Readonly<Record<string, (constraints: readonly unknown[]) => unknown[]>> = {
  isEnum: enumValues,
  isIn: isInValues,
};

const describeValue = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
};

/** Whether one path is the other or inside it: both then speak of the same value. */
const overlaps = (a: string, b: string): boolean => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const prefix = pointerSegments(short);
  const rest = pointerSegments(long);
  return prefix.every((segment, index) => rest[index] === segment);
};

const fromSchemaIssue = ({ path, keyword, message, allowed }: SchemaIssue): ArgumentIssue => ({
  path,
  constraint: keyword,
  message,
  ...(allowed && { allowed: [...allowed] }),
});

/**
 * Checks the arguments of a tool call the way the tool's JSON Schema describes them,
 * and reports each problem with a JSON Pointer so the model can fix that field and retry.
 *
 * Two checks, and a call must pass both, so that what the schema allows and what the
 * server accepts never differ: the schema itself (with the MCP SDK's Ajv 2020-12
 * validator), then class-transformer and class-validator, which build the DTO instance the
 * method receives and enforce the rules no schema can state (custom validators). Where
 * class-validator alone is looser than the DTO says (a numeric enum's member names, a
 * nested DTO left out), the schema decides; `KNOWN_SCHEMA_GAPS` lists those places.
 * class-validator's messages come first; schema issues are added for the values it
 * let through. Where the DTO's schema says all that its rules check
 * (schema-exactness.reader.ts), a call that passes the schema skips class-validator, which
 * could only agree; a refused call meets it as always, for its messages.
 */
export class DtoArgumentsValidator {
  // Per validator, not module-wide: a DTO's metadata is complete once the app has loaded,
  // and the invoker keeps one validator for the app's lifetime.
  private readonly shapes = new WeakMap<Function, DtoShape>();
  private readonly discriminated = new WeakMap<Function, boolean>();
  private readonly transformOptions = new WeakMap<Function, ClassTransformOptions>();

  /** @param ownSchemas what says when class-validator may be skipped (tests pass their own) */
  constructor(private readonly ownSchemas = new DtoOwnSchemaChecks()) {}

  /**
   * @param schemaCheck The tool's input schema as its server lists it, compiled at
   * bootstrap (`compileJsonSchema(inputSchema)`); when left out, the DTO's schema in the
   * default form (optional properties without null), built on first use.
   */
  async validate<T extends object>(
    dto: new (...a: any[]) => T,
    args: unknown,
    schemaCheck: JsonSchemaCheck = this.ownSchemas.checkOf(dto),
  ): Promise<ArgumentsValidation<T>> {
    const plain = args === undefined ? {} : args;
    if (!isPlainObject(plain)) {
      const message = `the arguments must be a JSON object, but got ${describeValue(plain)}`;
      return { ok: false, issues: [{ path: '', constraint: 'isObject', message }] };
    }
    const schemaIssues = schemaCheck(plain);
    // Where the schema says it all, class-validator could only agree: build the instance.
    if (schemaIssues.length === 0 && this.ownSchemas.vouchFor(dto, plain, schemaCheck)) {
      return { ok: true, value: this.vouchedInstance(dto, plain) };
    }
    // A discriminator makes class-transformer delete its property from the plain object;
    // the call's raw arguments (what guards see) must stay as the client sent them.
    const source = this.isDiscriminated(dto) ? structuredClone(plain) : plain;
    const instance = plainToInstance(dto, source, this.transformOptionsOf(dto));
    // class-validator calls a class without rules "an unknown value"; the schema of such a
    // DTO is an empty object, so only unknown keys (found below) are wrong.
    const errors =
      this.shapeOf(dto).properties.size > 0 ? await validate(instance, VALIDATOR_OPTIONS) : [];
    const issues = this.flatten(errors, '');
    const reported = new Set(issues.map((issue) => issue.path));
    for (const issue of this.unknownKeys(plain, dto, '')) {
      if (!reported.has(issue.path)) issues.push(issue);
    }
    // class-validator's messages (the DTO's own words) win where both found a problem.
    const explained = issues.map((issue) => issue.path);
    for (const issue of schemaIssues) {
      if (!explained.some((path) => overlaps(path, issue.path)))
        issues.push(fromSchemaIssue(issue));
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: instance };
  }

  /**
   * Arguments described by a JSON Schema alone (`@McpTool({ inputSchema })`): the schema is
   * the whole check, and the method receives the plain object.
   */
  validatePlain(
    args: Readonly<Record<string, unknown>>,
    schemaCheck: JsonSchemaCheck,
  ): ArgumentsValidation<object> {
    const issues = schemaCheck(args).map(fromSchemaIssue);
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: args };
  }

  /**
   * A method without a DTO takes no arguments: its schema is an object with no properties.
   * @param subject what takes none, in the message (`this method`)
   */
  validateNoArguments(
    args: Readonly<Record<string, unknown>>,
    subject = 'this tool',
  ): ArgumentsValidation<undefined> {
    const unexpected = Object.keys(args);
    if (unexpected.length === 0) return { ok: true, value: undefined };
    return {
      ok: false,
      issues: unexpected.map((key) => ({
        path: `/${escapePointer(key)}`,
        constraint: 'whitelistValidation',
        message: `property "${key}" is not allowed; ${subject} takes no arguments`,
      })),
    };
  }

  /**
   * The instance of arguments the DTO's schema vouched for. With flat values (no object or
   * array to copy) and no target map, what `plainToInstance` makes is the DTO constructed
   * (its initializers run) with each own key of the arguments assigned: made so directly,
   * it costs a third of the allocations (bench/README.md, issue 28). A vouched DTO has no
   * `@Type()`, `@Transform()`, `@Expose()` or `@Exclude()` (schema-exactness.reader.ts).
   */
  private vouchedInstance<T extends object>(
    dto: new (...a: any[]) => T,
    plain: Record<string, unknown>,
  ): T {
    const options = this.transformOptionsOf(dto);
    if (options.targetMaps !== undefined) return plainToInstance(dto, plain, options);
    for (const key in plain) {
      const value = plain[key];
      if (typeof value === 'object' && value !== null) return plainToInstance(dto, plain, options);
    }
    return Object.assign(new dto(), plain);
  }

  private isDiscriminated(dto: Function): boolean {
    let found = this.discriminated.get(dto);
    if (found !== undefined) return found;
    found = this.reachableDtos(dto).some((current) => this.shapeOf(current).hasDiscriminator);
    this.discriminated.set(dto, found);
    return found;
  }

  /** `dto` and every DTO class `@ValidateNested()` leads to from it, at any depth, once each. */
  private reachableDtos(dto: Function): Function[] {
    const visited = new Set<Function>();
    const visit = (current: Function) => {
      if (visited.has(current)) return;
      visited.add(current);
      for (const nested of this.shapeOf(current).properties.values()) if (nested) visit(nested);
    };
    visit(dto);
    return [...visited];
  }

  private shapeOf(dto: Function): DtoShape {
    let shape = this.shapes.get(dto);
    if (shape) return shape;
    const properties = new Map<string, Function | undefined>();
    const designTypeFallbacks: Record<string, Function> = {};
    const lists = new Map<string, Map<string, ListedRule>>();
    const ruleArguments = new Map<string, Map<string, RuleArguments>>();
    let hasDiscriminator = false;
    for (const { name, metadatas } of getDtoProperties(dto)) {
      const nested = metadatas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
      let target: ReturnType<typeof resolveNestedTarget> | undefined;
      try {
        if (nested.length > 0)
          target = resolveNestedTarget(
            dto,
            name,
            nested.some((m) => m.each),
          );
      } catch {
        // The schema factory already refused this DTO at bootstrap, with the reason.
      }
      properties.set(name, target?.type);
      if (target?.type && target.fromDesignType) designTypeFallbacks[name] = target.type;
      if (target?.discriminator) hasDiscriminator = true;
      for (const metadata of metadatas) {
        const validator = validatorNameOf(metadata);
        if (validator) {
          const own = ruleArguments.get(name) ?? new Map<string, RuleArguments>();
          own.set(validator, {
            constraints: metadata.constraints ?? [],
            customMessage: metadata.message !== undefined,
            each: metadata.each === true,
          });
          ruleArguments.set(name, own);
        }
        const read = validator && Object.hasOwn(LIST_VALUES, validator) && LIST_VALUES[validator];
        if (!read || !validator) continue;
        const rules = lists.get(name) ?? new Map<string, ListedRule>();
        rules.set(validator, {
          values: read(metadata.constraints ?? []),
          customMessage: metadata.message !== undefined,
        });
        lists.set(name, rules);
      }
    }
    shape = { properties, designTypeFallbacks, lists, hasDiscriminator, rules: ruleArguments };
    this.shapes.set(dto, shape);
    return shape;
  }

  /**
   * class-transformer builds nested objects from `@Type()` only; where the schema fell back
   * to `design:type`, a target map makes the instance match what the schema promised.
   */
  private transformOptionsOf(dto: Function): ClassTransformOptions {
    let options = this.transformOptions.get(dto);
    if (options) return options;
    const targetMaps: TargetMap[] = this.reachableDtos(dto).flatMap((current) => {
      const { designTypeFallbacks } = this.shapeOf(current);
      return Object.keys(designTypeFallbacks).length > 0
        ? [{ target: current, properties: designTypeFallbacks }]
        : [];
    });
    options = targetMaps.length > 0 ? { targetMaps } : {};
    this.transformOptions.set(dto, options);
    return options;
  }

  private allowedList(dto: Function | undefined): string {
    const names = dto ? [...this.shapeOf(dto).properties.keys()] : [];
    return names.length > 0 ? names.join(', ') : '(none)';
  }

  private unknownPropertyIssue(key: string, path: string, dto: Function | undefined) {
    const allowed = this.allowedList(dto);
    const message = `property "${key}" is not allowed; allowed properties: ${allowed}`;
    return withIssueDetails(
      { path, constraint: ValidationTypes.WHITELIST, message },
      {
        property: key,
        value: undefined,
        constraints: [allowed],
        customMessage: false,
        each: false,
      },
    );
  }

  private flatten(errors: readonly ValidationError[], parent: string): ArgumentIssue[] {
    return errors.flatMap((error) => {
      // An error without a property is about the object at `parent` itself ("unknownValue").
      const path =
        error.property === undefined ? parent : `${parent}/${escapePointer(error.property)}`;
      const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) =>
        constraint === ValidationTypes.WHITELIST
          ? this.unknownPropertyIssue(error.property, path, error.target?.constructor)
          : this.withDetails(this.withAllowedValues({ path, constraint, message }, error), error),
      );
      return [...own, ...this.flatten(error.children ?? [], path)];
    });
  }

  /** Keeps what the message was made from, for its translation (argument-issue.details.ts). */
  private withDetails(issue: ArgumentIssue, error: ValidationError): ArgumentIssue {
    const dto = error.target?.constructor;
    const rule = dto && this.shapeOf(dto).rules.get(error.property)?.get(issue.constraint);
    return withIssueDetails(issue, {
      property: error.property,
      value: error.value,
      constraints: rule?.constraints ?? [],
      customMessage: rule?.customMessage ?? false,
      each: rule?.each ?? false,
    });
  }

  /**
   * Adds the list of an `@IsEnum()`/`@IsIn()` rule. Its default message spells the values
   * without types ("1, 2" or "red, blue"), so it is replaced by one with JSON values, which
   * tell a model that 1 is not "1"; a message the DTO wrote itself is kept.
   */
  private withAllowedValues(issue: ArgumentIssue, error: ValidationError): ArgumentIssue {
    const dto = error.target?.constructor;
    const rule = dto && this.shapeOf(dto).lists.get(error.property)?.get(issue.constraint);
    if (!rule) return issue;
    const each = issue.message.startsWith('each value in ') ? 'each value in ' : '';
    const message = rule.customMessage
      ? issue.message
      : `${each}${error.property} must be one of ${renderValues(rule.values)}`;
    return { ...issue, message, allowed: [...rule.values] };
  }

  /**
   * Every key the DTO does not declare, at any depth the DTO validates. class-validator's
   * whitelist misses some of them: class-transformer silently drops `__proto__`,
   * `constructor` and names of the DTO's methods, and class-validator lets through names of
   * `Object.prototype` members such as `hasOwnProperty`. The schema rejects them all.
   */
  private unknownKeys(
    plain: Record<string, unknown>,
    dto: Function,
    path: string,
  ): ArgumentIssue[] {
    const { properties } = this.shapeOf(dto);
    return Object.keys(plain).flatMap((key): ArgumentIssue[] => {
      const keyPath = `${path}/${escapePointer(key)}`;
      if (!properties.has(key)) return [this.unknownPropertyIssue(key, keyPath, dto)];
      const nested = properties.get(key);
      const value = plain[key];
      if (!nested) return [];
      if (isPlainObject(value)) return this.unknownKeys(value, nested, keyPath);
      if (!Array.isArray(value)) return [];
      return value.flatMap((item: unknown, index) =>
        isPlainObject(item) ? this.unknownKeys(item, nested, `${keyPath}/${index}`) : [],
      );
    });
  }
}

/**
 * The issues as short text a model can act on, one line per field, with the allowed
 * values where the rule lists them:
 * `Invalid arguments:\n- /price: price must not be less than 0`.
 */
export function formatIssues(
  issues: readonly ArgumentIssue[],
  heading = 'Invalid arguments:',
  allowedText: (values: string) => string = (values) => `allowed: ${values}`,
): string {
  const lines = issues.map((issue) => {
    const listed = issue.allowed && renderValues(issue.allowed);
    const allowed = listed && !issue.message.includes(listed) ? ` (${allowedText(listed)})` : '';
    return `- ${issue.path || '(root)'}: ${issue.message}${allowed}`;
  });
  return [heading, ...lines].join('\n');
}
