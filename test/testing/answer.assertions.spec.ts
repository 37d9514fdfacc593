import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import {
  checks,
  describeArgument,
  partialMismatch,
  runChecks,
  type AnswerCheck,
  type QueuedCheck,
} from '../../lib/testing/answer.assertions.js';
import type { McpTestAnswer } from '../../lib/testing/mcp-test-answer.js';

const RESULT: McpTestAnswer = {
  method: 'tools/call',
  result: {
    content: [
      { type: 'text', text: 'Found 2' },
      { type: 'resource', resource: { uri: 'catalog://1', text: 'Lamp' } },
    ],
    structuredContent: { count: 2, items: [{ sku: 'L1', tags: ['new'] }, { sku: 'L2' }] },
  },
  response: { status: 200, headers: {} },
};
const TOOL_ERROR: McpTestAnswer = {
  method: 'tools/call',
  result: { isError: true, content: [{ type: 'text', text: 'Out of stock' }] },
};
const RPC_ERROR: McpTestAnswer = {
  method: 'tools/call',
  error: { code: -32602, message: 'Unknown tool: nope' },
};
const REFUSED: McpTestAnswer = {
  method: 'tools/list',
  result: { tools: [] },
  response: { status: 403, headers: {} },
};
const PROMPT: McpTestAnswer = {
  method: 'prompts/get',
  result: { messages: [{ role: 'user', content: { type: 'text', text: 'Plan a restock' } }] },
};
const TOOLS: McpTestAnswer = {
  method: 'tools/list',
  result: { tools: [{ name: 'search', description: 'Searches the catalog.' }, 'not a tool'] },
};

/** What each answer makes of a check: `undefined` where it holds, else why not. */
const verdicts = (check: AnswerCheck, ...answers: McpTestAnswer[]) => answers.map(check);

describe('checks', () => {
  it('ok: holds for a result, and says what else the answer was', () => {
    expect(verdicts(checks.ok(), RESULT, TOOL_ERROR, RPC_ERROR, REFUSED)).toEqual([
      undefined,
      'it is an isError result: "Out of stock"',
      'it is the error -32602 "Unknown tool: nope"',
      'the HTTP status is 403',
    ]);
  });

  it('error: any failure, a JSON-RPC code, or a part of the text', () => {
    expect(verdicts(checks.error(), RESULT, TOOL_ERROR, RPC_ERROR)).toEqual([
      'it is a successful result',
      undefined,
      undefined,
    ]);
    expect(verdicts(checks.error(-32602), TOOL_ERROR, RPC_ERROR)).toEqual([
      'it is an isError result, which has no error code',
      undefined,
    ]);
    expect(checks.error(-32601)(RPC_ERROR)).toBe('its error code is -32602');
    expect(verdicts(checks.error('stock'), TOOL_ERROR, RPC_ERROR)).toEqual([
      undefined,
      'its text is "Unknown tool: nope"',
    ]);
  });

  it('text and textContains: the text blocks joined by a newline, or the error message', () => {
    expect(checks.text('Found 2\nLamp')(RESULT)).toBeUndefined();
    expect(checks.text('Found 2')(RESULT)).toBe('its text is "Found 2\\nLamp"');
    expect(checks.text('Plan a restock')(PROMPT)).toBeUndefined();
    expect(checks.text('x')(TOOLS)).toBe('it has no text');
    expect(checks.textContains('tool: no')(RPC_ERROR)).toBeUndefined();
    expect(checks.textContains('Chair')(RESULT)).toBe('its text is "Found 2\\nLamp"');
    expect(checks.textContains('x')(TOOLS)).toBe('it has no text');
  });

  it('structured: a partial match, with where it differs', () => {
    expect(checks.structured({ items: [{ sku: 'L1' }, {}] })(RESULT)).toBeUndefined();
    expect(checks.structured({ items: [{ tags: ['old'] }, {}] })(RESULT)).toBe(
      'structuredContent.items[0].tags[0] is "new", not "old"',
    );
    expect(verdicts(checks.structured({}), TOOL_ERROR, RPC_ERROR)).toEqual([
      'it has no structuredContent',
      'it is an error',
    ]);
  });

  it('structured: a predicate, false or throwing failing it', () => {
    expect(checks.structured((value: any) => value.count === 2)(RESULT)).toBeUndefined();
    // Only false fails: a predicate that returns nothing (runs its own expects) passes.
    expect(checks.structured(() => undefined)(RESULT)).toBeUndefined();
    expect(checks.structured(() => false)(RESULT)).toBe('the predicate returned false');
    expect(
      checks.structured(() => {
        throw new Error('expected 3 items');
      })(RESULT),
    ).toBe('the predicate threw: expected 3 items');
    expect(
      checks.structured(() => {
        throw 'plain';
      })(RESULT),
    ).toBe('the predicate threw: plain');
  });

  it('listed: whether a tool is in a tools/list answer', () => {
    expect(checks.listed('search', true)(TOOLS)).toBeUndefined();
    expect(checks.listed('reset', false)(TOOLS)).toBeUndefined();
    expect(checks.listed('search', false)(TOOLS)).toBe('the tools listed are ["search",null]');
    expect(verdicts(checks.listed('search', true), RESULT, RPC_ERROR)).toEqual([
      'it is not a tool list',
      'it is an error',
    ]);
  });

  it('see: any string, number or boolean anywhere in the result or error', () => {
    expect(checks.see('the catalog')(TOOLS)).toBeUndefined();
    expect(checks.see('L2')(RESULT)).toBeUndefined();
    expect(checks.see('32602')(RPC_ERROR)).toBeUndefined();
    expect(checks.see('Chair')(RESULT)).toBe('no text of the answer contains it');
  });

  it('status: the HTTP status, which an in-memory answer does not have', () => {
    expect(checks.status(403)(REFUSED)).toBeUndefined();
    expect(checks.status(200)(REFUSED)).toBe('the HTTP status is 403');
    expect(checks.status(200)(PROMPT)).toBe(
      'this client is connected in memory, without HTTP (it has no status)',
    );
  });
});

describe('partialMismatch', () => {
  it('describes a shape that differs: not an array, not an object, another length', () => {
    expect(partialMismatch('x', [1], '')).toBe(' is "x", not an array');
    expect(partialMismatch({ a: [1] }, { a: { b: 1 } }, '')).toBe('.a is [1]');
    expect(partialMismatch([1, 2, 3], [1], '.list')).toBe('.list has 3 item(s), not 1: [1,2,3]');
  });

  it('compares values other than objects and arrays deeply and strictly', () => {
    expect(partialMismatch(1, '1', '.n')).toBe('.n is 1, not "1"');
    expect(partialMismatch(null, null, '')).toBeUndefined();
    expect(partialMismatch({ a: undefined }, { a: undefined }, '')).toBeUndefined();
    expect(partialMismatch({}, { a: undefined }, '')).toBe('.a is missing');
  });
});

/** A check as a request queues it, its site here. */
const queued = (asked: string, check: AnswerCheck): QueuedCheck => ({
  asked,
  check,
  site: new Error('queued here'),
});

describe('runChecks', () => {
  it('runs the checks in order and throws for the first that fails, with the whole answer', () => {
    let thirdRan = false;
    const run = () =>
      runChecks('callTool("search")', RPC_ERROR, [
        queued('assertError()', checks.error()),
        queued('assertOk()', checks.ok()),
        queued('assertText("x")', () => {
          thirdRan = true;
          return 'never';
        }),
      ]);
    expect(run).toThrow(AssertionError);
    expect(run).toThrow(
      'callTool("search").assertOk() failed: it is the error -32602 "Unknown tool: nope".\n' +
        `The answer:\n${JSON.stringify({ error: RPC_ERROR.error }, null, 2)}`,
    );
    expect(thirdRan).toBe(false);
  });

  it('names the assertion as the operator, and starts the stack where it was queued', () => {
    let error: AssertionError | undefined;
    try {
      runChecks('callTool("search")', RESULT, [queued('assertText("x")', checks.text('x'))]);
    } catch (thrown) {
      error = thrown as AssertionError;
    }
    expect(error?.operator).toBe('assertText');
    const frames = error?.stack?.split('\n') ?? [];
    expect(frames[0]).toMatch(/^AssertionError \[ERR_ASSERTION\]: callTool\("search"\)/);
    expect(frames.find((line) => line.trimStart().startsWith('at '))).toContain(
      'answer.assertions.spec.ts',
    );
  });

  it('passes when every check holds', () => {
    expect(() =>
      runChecks('listTools()', TOOLS, [
        queued('assertOk()', checks.ok()),
        queued('assertToolListed("search")', checks.listed('search', true)),
      ]),
    ).not.toThrow();
  });
});

describe('describeArgument', () => {
  it('shows values as JSON, functions by name, and nothing for no argument', () => {
    expect(describeArgument(undefined)).toBe('');
    expect(describeArgument('3')).toBe('"3"');
    expect(describeArgument({ sum: 3 })).toBe('{"sum":3}');
    expect(describeArgument(function hasTwoItems() {})).toBe('[function hasTwoItems]');
    expect(describeArgument(() => true)).toBe('[predicate]');
  });
});
