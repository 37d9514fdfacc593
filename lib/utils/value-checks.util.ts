/** Small checks on plain values that several stages make, written once. */

/** A string with something in it besides whitespace: a name, a group, a path. */
export const isNonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

/**
 * Whether two values are the same as JSON, as a JSON Schema `enum` or `const` compares
 * them (not `===`). Key order counts: the values compared are scalars or built the same way
 * (two instances of one DTO, a listed value and the argument that matched it).
 */
export const sameJson = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * An object as JSON has them: not an array, a `Date`, a `Map` or another class's instance,
 * which JSON would turn into something else (a string, `{}`).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What a thrown value says, whatever was thrown (an `Error`, a string, a rejection reason). */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * `value` when it is a positive whole number; otherwise a `RangeError` naming the class and
 * its option, for constructor options that no module validator checks.
 */
export function positiveInteger(owner: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${owner}: ${name} must be a positive integer, not ${value}`);
  }
  return value;
}
