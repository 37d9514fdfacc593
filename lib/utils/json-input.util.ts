import { escapePointer } from './json-pointer.util.js';

/**
 * Checks on a JSON value received from a client, before any of it reaches the SDK, a
 * DTO or class-transformer. Pure and transport-neutral: the HTTP endpoint uses it, and
 * any other transport that parses client JSON can too.
 */

/** How deep a request body may nest objects and arrays, the body itself being level 1. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Keys refused anywhere in client JSON. `JSON.parse` makes `__proto__` an ordinary own
 * key, but any later `Object.assign`, `obj[key] = value` copy (class-transformer's
 * `plainToInstance` does this) or merge turns it into a prototype change; `constructor`
 * and `prototype` are the other half of the classic pollution gadget
 * (`constructor.prototype`), and no tool argument needs them.
 */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** What is wrong with a JSON value, with a JSON Pointer to where. */
export type JsonInputProblem =
  | { kind: 'too-deep'; maxDepth: number; pointer: string }
  | { kind: 'forbidden-key'; key: string; pointer: string };

/**
 * The first problem found in `value` (a parsed JSON value), or `undefined`. The walk
 * stops at `maxDepth`, so a hostile 100 000-level body costs `maxDepth` stack frames,
 * never a stack overflow.
 */
export function findJsonInputProblem(
  value: unknown,
  maxDepth: number = DEFAULT_MAX_JSON_DEPTH,
): JsonInputProblem | undefined {
  return walk(value, 1, [], maxDepth);
}

/** The pointer of a path, made only when a problem is found (every request is walked). */
const pointerOf = (path: readonly (string | number)[]) =>
  path
    .map((segment) => `/${typeof segment === 'number' ? segment : escapePointer(segment)}`)
    .join('');

function walk(
  value: unknown,
  depth: number,
  path: (string | number)[],
  maxDepth: number,
): JsonInputProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > maxDepth) return { kind: 'too-deep', maxDepth, pointer: pointerOf(path) || '/' };
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const problem = walk(value[index], depth + 1, path, maxDepth);
      path.pop();
      if (problem) return problem;
    }
    return undefined;
  }
  // Own keys only: `Object.keys` lists an own `__proto__` key made by JSON.parse.
  for (const key of Object.keys(value)) {
    path.push(key);
    if (FORBIDDEN_JSON_KEYS.has(key))
      return { kind: 'forbidden-key', key, pointer: pointerOf(path) };
    const problem = walk((value as Record<string, unknown>)[key], depth + 1, path, maxDepth);
    path.pop();
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A message for the client that says what is wrong and what to do.
 * @param subject what was checked, as the message names it
 */
export function describeJsonInputProblem(
  problem: JsonInputProblem,
  subject = 'The JSON body',
): string {
  if (problem.kind === 'too-deep') {
    return (
      `${subject} nests objects or arrays deeper than ${problem.maxDepth} levels ` +
      `(at ${problem.pointer}); send flatter input.`
    );
  }
  return (
    `${subject} contains the key "${problem.key}" (at ${problem.pointer}); the keys ` +
    `${[...FORBIDDEN_JSON_KEYS].join(', ')} are refused to prevent prototype pollution.`
  );
}
