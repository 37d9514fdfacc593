import { AssertionError } from 'node:assert';
import { McpTestRequest, type McpTestAnswer } from 'nestjs-mcp/testing';
import { describe, expect, it } from 'vitest';
import { partialMismatch } from '../../lib/testing/answer.assertions.js';

const TOOL_RESULT: McpTestAnswer = {
  method: 'tools/call',
  result: {
    content: [{ type: 'text', text: '{"sum":3}' }],
    structuredContent: { sum: 3, terms: [1, 2], detail: { unit: 'none' } },
  },
  response: { status: 200, headers: { 'content-type': 'application/json' } },
};

const INVALID: McpTestAnswer = {
  method: 'tools/call',
  result: { isError: true, content: [{ type: 'text', text: 'a must be an integer' }] },
};

const UNKNOWN: McpTestAnswer = {
  method: 'tools/call',
  error: { code: -32602, message: 'Unknown tool: nope' },
  response: { status: 200, headers: {} },
};

const TOOLS: McpTestAnswer = {
  method: 'tools/list',
  result: { tools: [{ name: 'add', description: 'Adds two integers.' }] },
};

/** A request whose answer is given, counting how often it is sent. */
function requestAnswering(answer: McpTestAnswer) {
  const sent = { count: 0 };
  const request = new McpTestRequest('callTool("add", {"a":1,"b":2})', async () => {
    sent.count += 1;
    return answer;
  });
  return { request, sent };
}

async function failureOf(request: PromiseLike<unknown>): Promise<AssertionError> {
  const error = await Promise.resolve(request).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AssertionError);
  return error as AssertionError;
}

describe('McpTestRequest', () => {
  it('sends nothing until awaited, then once, and resolves with the answer', async () => {
    const { request, sent } = requestAnswering(TOOL_RESULT);
    request.assertOk();
    expect(sent.count).toBe(0);
    expect(await request).toBe(TOOL_RESULT);
    await request;
    expect(sent.count).toBe(1);
  });

  it.each([
    ['assertOk()', (r: McpTestRequest) => r.assertOk(), TOOL_RESULT],
    ['assertError()', (r: McpTestRequest) => r.assertError(), INVALID],
    ['assertError(-32602)', (r: McpTestRequest) => r.assertError(-32602), UNKNOWN],
    ['assertError(text)', (r: McpTestRequest) => r.assertError('must be an integer'), INVALID],
    ['assertText', (r: McpTestRequest) => r.assertText('{"sum":3}'), TOOL_RESULT],
    ['assertTextContains', (r: McpTestRequest) => r.assertTextContains('sum'), TOOL_RESULT],
    [
      'assertStructured(partial)',
      (r: McpTestRequest) => r.assertStructured({ detail: {}, terms: [1, 2] }),
      TOOL_RESULT,
    ],
    [
      'assertStructured(predicate)',
      (r: McpTestRequest) => r.assertStructured((s) => s.sum === 3),
      TOOL_RESULT,
    ],
    ['assertToolListed', (r: McpTestRequest) => r.assertToolListed('add'), TOOLS],
    ['assertToolNotListed', (r: McpTestRequest) => r.assertToolNotListed('reset'), TOOLS],
    ['assertSee', (r: McpTestRequest) => r.assertSee('two integers'), TOOLS],
    ['assertStatus', (r: McpTestRequest) => r.assertStatus(200), UNKNOWN],
  ])('passes %s on a matching answer', async (_name, assert, answer) => {
    await assert(requestAnswering(answer).request);
  });

  it.each([
    ['assertOk()', (r: McpTestRequest) => r.assertOk(), INVALID, 'it is an isError result'],
    ['assertOk()', (r: McpTestRequest) => r.assertOk(), UNKNOWN, 'it is the error -32602'],
    ['assertError()', (r: McpTestRequest) => r.assertError(), TOOL_RESULT, 'successful result'],
    [
      'assertError(-32601)',
      (r: McpTestRequest) => r.assertError(-32601),
      UNKNOWN,
      'its error code is -32602',
    ],
    [
      'assertText',
      (r: McpTestRequest) => r.assertText('3'),
      TOOL_RESULT,
      'its text is "{\\"sum\\":3}"',
    ],
    [
      'assertStructured',
      (r: McpTestRequest) => r.assertStructured({ detail: { unit: 'kg' } }),
      TOOL_RESULT,
      'structuredContent.detail.unit is "none", not "kg"',
    ],
    [
      'assertStructured',
      (r: McpTestRequest) => r.assertStructured({ terms: [1] }),
      TOOL_RESULT,
      'structuredContent.terms has 2 item(s), not 1',
    ],
    [
      'assertStructured',
      (r: McpTestRequest) => r.assertStructured(() => false),
      TOOL_RESULT,
      'the predicate returned false',
    ],
    ['assertToolListed', (r: McpTestRequest) => r.assertToolListed('reset'), TOOLS, '["add"]'],
    ['assertSee', (r: McpTestRequest) => r.assertSee('seven'), TOOLS, 'no text of the answer'],
    ['assertStatus', (r: McpTestRequest) => r.assertStatus(401), UNKNOWN, 'HTTP status is 200'],
    ['assertStatus', (r: McpTestRequest) => r.assertStatus(401), INVALID, 'in memory'],
  ])('fails %s with what the answer was instead (%#)', async (_name, assert, answer, why) => {
    const error = await failureOf(assert(requestAnswering(answer).request));
    expect(error.message).toContain(why);
  });

  it('shows what was asked and the whole answer, and points at the line of the test', async () => {
    const { request } = requestAnswering(TOOL_RESULT);
    const error = await failureOf(request.assertOk().assertText('4'));
    expect(error.message).toBe(
      `callTool("add", {"a":1,"b":2}).assertText("4") failed: its text is "{\\"sum\\":3}".\n` +
        `The answer:\n${JSON.stringify({ response: TOOL_RESULT.response, result: TOOL_RESULT.result }, null, 2)}`,
    );
    const firstFrame = error.stack!.split('\n').find((line) => line.trimStart().startsWith('at '));
    expect(firstFrame).toContain('mcp-test.request.spec.ts');
  });

  it('stops at the first failing assertion, in the order written', async () => {
    const { request } = requestAnswering(INVALID);
    const error = await failureOf(request.assertText('nope').assertOk());
    expect(error.message).toContain('.assertText("nope") failed');
  });

  it('refuses an assertion queued after the request was awaited', async () => {
    const { request } = requestAnswering(TOOL_RESULT);
    await request;
    expect(() => request.assertOk()).toThrow(/already awaited; queue assertions before awaiting/);
  });

  it('works with catch() and finally() like a promise', async () => {
    const { request } = requestAnswering(INVALID);
    let settled = false;
    const caught = await request
      .assertOk()
      .finally(() => {
        settled = true;
      })
      .catch((reason: unknown) => reason);
    expect(caught).toBeInstanceOf(AssertionError);
    expect(settled).toBe(true);
  });
});

describe('partialMismatch', () => {
  it('accepts extra keys and matches arrays item by item', () => {
    expect(partialMismatch({ a: 1, b: [{ c: 2, d: 3 }] }, { b: [{ c: 2 }] }, '')).toBeUndefined();
    expect(partialMismatch({ a: 1 }, { a: 1, b: 2 }, '')).toBe('.b is missing');
    expect(partialMismatch({ a: [1, 2] }, { a: [1, 3] }, '')).toBe('.a[1] is 2, not 3');
    expect(partialMismatch({ a: null }, { a: {} }, '')).toBe('.a is null');
  });
});
