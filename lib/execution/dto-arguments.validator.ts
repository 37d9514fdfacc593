import { plainToInstance, type TargetMap } from 'class-transformer';
import { validate, ValidationTypes, type ValidationError } from 'class-validator';
import { getDtoProperties, resolveNestedTarget } from '../schema/dto-schema.factory.js';

/** One reason the arguments of a call were rejected. */
export interface ArgumentIssue {
  /** JSON Pointer (RFC 6901) to the offending value: "/address/zip", "/tags/1"; "" for the whole object. */
  path: string;
  /** The class-validator constraint that failed, e.g. "isInt", "whitelistValidation". */
  constraint: string;
  message: string;
}

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
}

const escapePointer = (segment: string): string =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1');

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

const describeValue = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
};

/**
 * Checks the arguments of a tool call against its DTO with class-transformer and
 * class-validator, as the JSON Schema from `DtoSchemaFactory` describes them, and reports
 * each problem with a JSON Pointer so the model can fix that field and retry.
 * @publicApi
 */
export class DtoArgumentsValidator {
  // Per validator, not module-wide: a DTO's metadata is complete once the app has loaded,
  // and the invoker keeps one validator for the app's lifetime.
  private readonly shapes = new WeakMap<Function, DtoShape>();
  private readonly targetMaps = new WeakMap<Function, TargetMap[]>();

  async validate<T extends object>(
    dto: new (...a: any[]) => T,
    args: unknown,
  ): Promise<ArgumentsValidation<T>> {
    const plain = args === undefined ? {} : args;
    if (!isPlainObject(plain)) {
      const message = `the arguments must be a JSON object, but got ${describeValue(plain)}`;
      return { ok: false, issues: [{ path: '', constraint: 'isObject', message }] };
    }
    const targetMaps = this.targetMapsOf(dto);
    const instance = plainToInstance(dto, plain, targetMaps.length > 0 ? { targetMaps } : {});
    // class-validator calls a class without rules "an unknown value"; the schema of such a
    // DTO is an empty object, so only unknown keys (found below) are wrong.
    const errors =
      this.shapeOf(dto).properties.size > 0 ? await validate(instance, VALIDATOR_OPTIONS) : [];
    const issues = this.flatten(errors, '');
    const reported = new Set(issues.map((issue) => issue.path));
    for (const issue of this.unknownKeys(plain, dto, '')) {
      if (!reported.has(issue.path)) issues.push(issue);
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: instance };
  }

  private shapeOf(dto: Function): DtoShape {
    let shape = this.shapes.get(dto);
    if (shape) return shape;
    const properties = new Map<string, Function | undefined>();
    const designTypeFallbacks: Record<string, Function> = {};
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
    }
    shape = { properties, designTypeFallbacks };
    this.shapes.set(dto, shape);
    return shape;
  }

  /**
   * class-transformer builds nested objects from `@Type()` only; where the schema fell back
   * to `design:type`, a target map makes the instance match what the schema promised.
   */
  private targetMapsOf(dto: Function): TargetMap[] {
    let maps = this.targetMaps.get(dto);
    if (maps) return maps;
    const found: TargetMap[] = [];
    const visited = new Set<Function>();
    const visit = (current: Function) => {
      if (visited.has(current)) return;
      visited.add(current);
      const shape = this.shapeOf(current);
      if (Object.keys(shape.designTypeFallbacks).length > 0) {
        found.push({ target: current, properties: shape.designTypeFallbacks });
      }
      for (const nested of shape.properties.values()) if (nested) visit(nested);
    };
    visit(dto);
    maps = found;
    this.targetMaps.set(dto, maps);
    return maps;
  }

  private allowedList(dto: Function | undefined): string {
    const names = dto ? [...this.shapeOf(dto).properties.keys()] : [];
    return names.length > 0 ? names.join(', ') : '(none)';
  }

  private unknownPropertyIssue(key: string, path: string, dto: Function | undefined) {
    const message = `property "${key}" is not allowed; allowed properties: ${this.allowedList(dto)}`;
    return { path, constraint: ValidationTypes.WHITELIST, message };
  }

  private flatten(errors: readonly ValidationError[], parent: string): ArgumentIssue[] {
    return errors.flatMap((error) => {
      // An error without a property is about the object at `parent` itself ("unknownValue").
      const path =
        error.property === undefined ? parent : `${parent}/${escapePointer(error.property)}`;
      const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) =>
        constraint === ValidationTypes.WHITELIST
          ? this.unknownPropertyIssue(error.property, path, error.target?.constructor)
          : { path, constraint, message },
      );
      return [...own, ...this.flatten(error.children ?? [], path)];
    });
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
 * The issues as short text a model can act on:
 * `Invalid arguments:\n- /price: price must not be less than 0`.
 */
export function formatIssues(issues: readonly ArgumentIssue[]): string {
  const lines = issues.map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`);
  return ['Invalid arguments:', ...lines].join('\n');
}
