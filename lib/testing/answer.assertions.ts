import { AssertionError } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import {
  answerStrings,
  answerText,
  isFailure,
  printAnswer,
  type McpTestAnswer,
} from './mcp-test-answer.js';

/**
 * One check of an answer: `undefined` when it holds, else the sentence that says what the
 * answer was instead (the failure message adds what was asked and the whole answer).
 */
export type AnswerCheck = (answer: McpTestAnswer<any>) => string | undefined;

const quote = (value: unknown) => JSON.stringify(value);

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null;

export const checks = {
  ok: (): AnswerCheck => (answer) => {
    if (answer.error) return `it is the error ${answer.error.code} ${quote(answer.error.message)}`;
    if (isObject(answer.result) && answer.result.isError === true) {
      return `it is an isError result: ${quote(answerText(answer) ?? '')}`;
    }
    if (answer.response && answer.response.status >= 400) {
      return `the HTTP status is ${answer.response.status}`;
    }
    return undefined;
  },

  error:
    (codeOrText?: number | string): AnswerCheck =>
    (answer) => {
      if (!isFailure(answer)) return 'it is a successful result';
      if (codeOrText === undefined) return undefined;
      if (typeof codeOrText === 'number') {
        if (!answer.error) return 'it is an isError result, which has no error code';
        return answer.error.code === codeOrText
          ? undefined
          : `its error code is ${answer.error.code}`;
      }
      const text = answerText(answer) ?? '';
      return text.includes(codeOrText) ? undefined : `its text is ${quote(text)}`;
    },

  text:
    (exact: string): AnswerCheck =>
    (answer) => {
      const text = answerText(answer);
      if (text === exact) return undefined;
      return text === undefined ? 'it has no text' : `its text is ${quote(text)}`;
    },

  textContains:
    (part: string): AnswerCheck =>
    (answer) => {
      const text = answerText(answer);
      if (text?.includes(part)) return undefined;
      return text === undefined ? 'it has no text' : `its text is ${quote(text)}`;
    },

  structured:
    (expected: unknown): AnswerCheck =>
    (answer) => {
      const result = answer.result as Record<string, unknown> | undefined;
      if (!isObject(result) || !('structuredContent' in result)) {
        return answer.error ? 'it is an error' : 'it has no structuredContent';
      }
      const actual = result.structuredContent;
      if (typeof expected === 'function') {
        let verdict: unknown;
        try {
          verdict = (expected as (value: unknown) => unknown)(actual);
        } catch (error) {
          return `the predicate threw: ${(error as Error)?.message ?? String(error)}`;
        }
        return verdict === false ? 'the predicate returned false' : undefined;
      }
      const mismatch = partialMismatch(actual, expected, '');
      return mismatch === undefined ? undefined : `structuredContent${mismatch}`;
    },

  view:
    (expected: unknown): AnswerCheck =>
    (answer) => {
      const view = answer.result as Record<string, unknown> | undefined;
      if (!isObject(view) || typeof view.html !== 'string') {
        return answer.error ? 'it is an error' : 'it is not a view (readView())';
      }
      if (typeof expected === 'function') {
        try {
          return (expected as (value: unknown) => unknown)(view) === false
            ? 'the predicate returned false'
            : undefined;
        } catch (error) {
          return `the predicate threw: ${(error as Error)?.message ?? String(error)}`;
        }
      }
      const mismatch = partialMismatch(view, expected, '');
      return mismatch === undefined ? undefined : `the view${mismatch}`;
    },

  listed:
    (name: string, expected: boolean): AnswerCheck =>
    (answer) => {
      const tools = (answer.result as { tools?: unknown } | undefined)?.tools;
      if (!Array.isArray(tools)) return answer.error ? 'it is an error' : 'it is not a tool list';
      const names = tools.map((tool) => (isObject(tool) ? tool.name : undefined));
      if (names.includes(name) === expected) return undefined;
      return `the tools listed are ${quote(names)}`;
    },

  see:
    (text: string): AnswerCheck =>
    (answer) =>
      answerStrings(answer).some((value) => value.includes(text))
        ? undefined
        : 'no text of the answer contains it',

  status:
    (status: number): AnswerCheck =>
    (answer) => {
      if (!answer.response) {
        return 'this client is connected in memory, without HTTP (it has no status)';
      }
      return answer.response.status === status
        ? undefined
        : `the HTTP status is ${answer.response.status}`;
    },
};

/**
 * Where `actual` differs from `expected`, deep and partial: an object of `expected` needs
 * only its own keys in `actual` (others may be there), an array needs the same length and
 * each item matched, anything else must be equal. The JSON Pointer-ish path and the two
 * values, else `undefined`.
 */
export function partialMismatch(
  actual: unknown,
  expected: unknown,
  path: string,
): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || ''} is ${quote(actual)}, not an array`;
    if (actual.length !== expected.length) {
      return `${path} has ${actual.length} item(s), not ${expected.length}: ${quote(actual)}`;
    }
    for (let index = 0; index < expected.length; index++) {
      const found = partialMismatch(actual[index], expected[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual) || Array.isArray(actual)) return `${path} is ${quote(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const at = `${path}.${key}`;
      if (!(key in actual)) return `${at} is missing`;
      const found = partialMismatch(actual[key], value, at);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return isDeepStrictEqual(actual, expected)
    ? undefined
    : `${path} is ${quote(actual)}, not ${quote(expected)}`;
}

/** A check queued on a request, with the place of the test that queued it. */
export interface QueuedCheck {
  /** `assertText("3")`, as the message shows it. */
  readonly asked: string;
  readonly check: AnswerCheck;
  /** Holds the stack of the test line that queued the check. */
  readonly site: { stack?: string };
}

/**
 * Runs the checks in order; the first that fails throws an `AssertionError` whose stack
 * starts at the test line that queued it (so runners point there, not into the kit).
 */
export function runChecks(
  request: string,
  answer: McpTestAnswer<unknown>,
  queued: readonly QueuedCheck[],
): void {
  for (const { asked, check, site } of queued) {
    const why = check(answer);
    if (why === undefined) continue;
    const message = `${request}.${asked} failed: ${why}.\nThe answer:\n${printAnswer(answer)}`;
    const error = new AssertionError({ message, operator: asked.replace(/\(.*$/s, '') });
    const frames = site.stack?.split('\n').slice(1).join('\n');
    if (frames) error.stack = `${error.name} [${error.code}]: ${message}\n${frames}`;
    throw error;
  }
}

/** How an argument of an assertion is shown in a message. */
export function describeArgument(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'function') return value.name ? `[function ${value.name}]` : '[predicate]';
  return quote(value);
}
