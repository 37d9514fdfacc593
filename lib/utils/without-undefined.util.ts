/**
 * The object without its `undefined` fields, so optional metadata is left out of what
 * clients receive rather than sent as `null` or an absent-but-present key.
 */
export function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
