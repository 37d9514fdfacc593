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
