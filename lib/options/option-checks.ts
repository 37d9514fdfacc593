/** Checks of option values that several validators of this folder make. */

/** An object whose keys are options (not an array, not `null`). */
export const isOptionsObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isPositiveInteger = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) > 0;

/** A guard class, or an instance with `canActivate`. */
export const isGuard = (guard: unknown): boolean =>
  typeof guard === 'function' ||
  (typeof guard === 'object' && guard !== null && 'canActivate' in guard);

/** The problem of an option that must be `true` or `false`, when it is set to anything else. */
export const booleanProblem = (path: string, value: unknown): string | undefined =>
  value !== undefined && typeof value !== 'boolean' ? `"${path}" must be true or false` : undefined;

/** The problem of an option that must be a positive whole number, when it is set to anything else. */
export const wholeNumberProblem = (path: string, value: unknown): string | undefined =>
  value !== undefined && !isPositiveInteger(value)
    ? `"${path}" must be a positive whole number (got ${JSON.stringify(value)})`
    : undefined;
