import { plainToInstance, type TargetMap } from 'class-transformer';
import { validate, ValidationTypes, type ValidationError } from 'class-validator';
import {
  getDtoProperties,
  resolveNestedTarget,
  type DtoProperty,
} from '../schema/dto-schema.factory.js';

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

const escapePointer = (segment: string): string =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1');

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

const describe = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
};

const allowedList = (properties: readonly DtoProperty[]): string =>
  properties.length > 0 ? properties.map((property) => property.name).join(', ') : '(none)';

const unknownPropertyMessage = (key: string, dto: Function | undefined): string =>
  `property "${key}" is not allowed; allowed properties: ${allowedList(dto ? getDtoProperties(dto) : [])}`;

const isNested = (property: DtoProperty): boolean =>
  property.metadatas.some((metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION);

/**
 * Checks the arguments of a tool call against its DTO with class-transformer and
 * class-validator, exactly as the JSON Schema from `DtoSchemaFactory` describes them, and
 * reports each problem with a JSON Pointer so the model can fix that field and retry.
 * @publicApi
 */
export class DtoArgumentsValidator {
  // Per validator, not module-wide: a DTO's class graph is fixed once the app has loaded.
  private readonly targetMapsByDto = new WeakMap<Function, TargetMap[]>();

  async validate<T extends object>(
    dto: new (...a: any[]) => T,
    args: unknown,
  ): Promise<ArgumentsValidation<T>> {
    const plain = args === undefined ? {} : args;
    if (!isPlainObject(plain)) {
      const message = `the arguments must be a JSON object, but got ${describe(plain)}`;
      return { ok: false, issues: [{ path: '', constraint: 'isObject', message }] };
    }
    const targetMaps = this.targetMapsOf(dto);
    const instance = plainToInstance(dto, plain, targetMaps.length > 0 ? { targetMaps } : {});
    // class-validator calls a class without rules "an unknown value"; the schema of such a
    // DTO is an empty object, so only unknown keys (found below) are wrong.
    const errors =
      getDtoProperties(dto).length > 0 ? await validate(instance, VALIDATOR_OPTIONS) : [];
    const issues = flattenErrors(errors, '');
    const reported = new Set(issues.map((issue) => issue.path));
    for (const issue of unknownKeys(plain, dto, '')) {
      if (!reported.has(issue.path)) issues.push(issue);
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: instance };
  }

  /**
   * class-transformer builds nested objects from `@Type()` only; where the schema fell back
   * to `design:type`, a target map makes the instance match what the schema promised.
   */
  private targetMapsOf(dto: Function): TargetMap[] {
    let maps = this.targetMapsByDto.get(dto);
    if (maps) return maps;
    maps = [];
    const visited = new Set<Function>();
    const visit = (current: Function) => {
      if (visited.has(current)) return;
      visited.add(current);
      const properties: Record<string, Function> = {};
      for (const property of getDtoProperties(current).filter(isNested)) {
        const target = tryResolveNested(current, property);
        if (!target?.type) continue;
        if (target.fromDesignType) properties[property.name] = target.type;
        visit(target.type);
      }
      if (Object.keys(properties).length > 0) maps.push({ target: current, properties });
    };
    visit(dto);
    this.targetMapsByDto.set(dto, maps);
    return maps;
  }
}

function tryResolveNested(dto: Function, property: DtoProperty) {
  const each = property.metadatas.some(
    (metadata) => metadata.type === ValidationTypes.NESTED_VALIDATION && metadata.each,
  );
  try {
    return resolveNestedTarget(dto, property.name, each);
  } catch {
    // The schema factory already refused this DTO at bootstrap with the reason.
    return undefined;
  }
}

function flattenErrors(errors: readonly ValidationError[], parent: string): ArgumentIssue[] {
  return errors.flatMap((error) => {
    // An error without a property is about the object at `parent` itself ("unknownValue").
    const path =
      error.property === undefined ? parent : `${parent}/${escapePointer(error.property)}`;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      path,
      constraint,
      message:
        constraint === ValidationTypes.WHITELIST
          ? unknownPropertyMessage(error.property, error.target?.constructor)
          : message,
    }));
    return [...own, ...flattenErrors(error.children ?? [], path)];
  });
}

/**
 * Every key the DTO does not declare, at any depth the DTO validates. class-validator's
 * whitelist misses some of them: class-transformer silently drops `__proto__`,
 * `constructor` and names of the DTO's methods, and class-validator lets through names of
 * `Object.prototype` members such as `hasOwnProperty`. The schema rejects them all.
 */
function unknownKeys(plain: Record<string, unknown>, dto: Function, path: string): ArgumentIssue[] {
  const properties = getDtoProperties(dto);
  const byName = new Map(properties.map((property) => [property.name, property]));
  return Object.keys(plain).flatMap((key): ArgumentIssue[] => {
    const keyPath = `${path}/${escapePointer(key)}`;
    const property = byName.get(key);
    if (!property) {
      const message = `property "${key}" is not allowed; allowed properties: ${allowedList(properties)}`;
      return [{ path: keyPath, constraint: ValidationTypes.WHITELIST, message }];
    }
    if (!isNested(property)) return [];
    const target = tryResolveNested(dto, property)?.type;
    const value = plain[key];
    if (!target) return [];
    if (isPlainObject(value)) return unknownKeys(value, target, keyPath);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown, index) =>
      isPlainObject(item) ? unknownKeys(item, target, `${keyPath}/${index}`) : [],
    );
  });
}

/**
 * The issues as short text a model can act on:
 * `Invalid arguments:\n- /price: price must not be less than 0`.
 */
export function formatIssues(issues: readonly ArgumentIssue[]): string {
  const lines = issues.map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`);
  return ['Invalid arguments:', ...lines].join('\n');
}
