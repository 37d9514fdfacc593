import { isPlainObject } from '../utils/value-checks.util.js';

/**
 * Deeper than this, a value is not taken for JSON: arguments that deep are rare, and the
 * limit ends the walk of a value that refers to itself, which only code can pass.
 */
const MAX_DEPTH = 64;

/**
 * Whether a value is made of what `JSON.parse()` makes (plain objects, arrays, strings,
 * finite numbers, booleans, null), with no string that `inexactStrings` matches: the
 * values on which the agreement of a DTO's schema and class-validator is established.
 */
export function isJsonTree(value: unknown, inexactStrings?: RegExp, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
      return inexactStrings === undefined || !inexactStrings.test(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isJsonTree(item, inexactStrings, depth + 1)) return false;
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const key in value) {
        if (!isJsonTree(value[key], inexactStrings, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
