/**
 * Reads and writes of keys that come from user code (property names, option keys) on plain
 * objects: `__proto__` stays a key, and a name like `toString` never finds what every object
 * inherits.
 */

/** Sets `key` as an own, enumerable property, whatever its name. */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The value of an own property, never an inherited one. */
export function ownValue<T>(source: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}
