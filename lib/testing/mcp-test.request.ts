import { checks, describeArgument, runChecks, type QueuedCheck } from './answer.assertions.js';
import type { McpTestAnswer } from './mcp-test-answer.js';
import type {
  McpQuestionAnswerer,
  McpTestHooks,
  McpTestLog,
  McpTestProgress,
} from './mcp-test.hooks.js';

/**
 * One request of an `McpTestClient`, and the assertions queued on it. Like supertest's
 * `Test`, it is a thenable: nothing is sent until it is awaited, then the request runs
 * once and the assertions run in the order they were written. The awaited value is the
 * {@link McpTestAnswer} (`result`, `error`, `response`) for one's own assertions.
 *
 * @example await mcp.callTool('add', { a: 1, b: 2 }).assertOk().assertText('3');
 * @publicApi
 */
export class McpTestRequest<R = Record<string, any>> implements PromiseLike<McpTestAnswer<R>> {
  private readonly queued: QueuedCheck[] = [];
  private readonly hooks: McpTestHooks = {};
  private running?: Promise<McpTestAnswer<R>>;

  /** @internal Built by `McpTestClient`. */
  constructor(
    /** `callTool("add", {"a":1,"b":2})`, as failure messages show the request. */
    private readonly label: string,
    private readonly run: (hooks: McpTestHooks) => Promise<McpTestAnswer<R>>,
  ) {}

  /** The answer is neither a JSON-RPC error, nor an `isError` result, nor an HTTP status >= 400. */
  assertOk(): this {
    return this.queue(this.assertOk, 'assertOk()', checks.ok());
  }

  /**
   * The answer is a failure: a JSON-RPC error or an `isError` result. With a number, the
   * JSON-RPC error code (`-32602`); with a string, a part of its text.
   */
  assertError(codeOrText?: number | string): this {
    return this.queue(
      this.assertError,
      `assertError(${describeArgument(codeOrText)})`,
      checks.error(codeOrText),
    );
  }

  /** The answer's text is exactly this (text blocks joined with a newline). */
  assertText(exact: string): this {
    return this.queue(
      this.assertText,
      `assertText(${describeArgument(exact)})`,
      checks.text(exact),
    );
  }

  /** The answer's text contains this. */
  assertTextContains(part: string): this {
    return this.queue(
      this.assertTextContains,
      `assertTextContains(${describeArgument(part)})`,
      checks.textContains(part),
    );
  }

  /**
   * The result's `structuredContent` matches: deep and partial with an object (other keys
   * may be there; arrays are matched item by item), or a predicate that returns `false`
   * (or throws) when it does not.
   */
  assertStructured(
    expected: Record<string, unknown> | unknown[] | ((structured: any) => unknown),
  ): this {
    return this.queue(
      this.assertStructured,
      `assertStructured(${describeArgument(expected)})`,
      checks.structured(expected),
    );
  }

  /** A tool list (`listTools()`) names this tool. */
  assertToolListed(name: string): this {
    return this.queue(
      this.assertToolListed,
      `assertToolListed(${describeArgument(name)})`,
      checks.listed(name, true),
    );
  }

  /** A tool list (`listTools()`) does not name this tool. */
  assertToolNotListed(name: string): this {
    return this.queue(
      this.assertToolNotListed,
      `assertToolNotListed(${describeArgument(name)})`,
      checks.listed(name, false),
    );
  }

  /**
   * A view (`readView()`) matches, deep and partial as `assertStructured()`: `{ mimeType,
   * meta: { csp: { connectDomains: [...] } }, visibility }`, or a predicate of the view.
   */
  assertView(expected: Record<string, unknown> | ((view: any) => unknown)): this {
    return this.queue(
      this.assertView,
      `assertView(${describeArgument(expected)})`,
      checks.view(expected),
    );
  }

  /** Some text of the answer (a text, a name, a description, a value, the error) contains this. */
  assertSee(text: string): this {
    return this.queue(this.assertSee, `assertSee(${describeArgument(text)})`, checks.see(text));
  }

  /** The HTTP status of the answer (the kit's HTTP mode only). */
  assertStatus(status: number): this {
    return this.queue(this.assertStatus, `assertStatus(${status})`, checks.status(status));
  }

  /** Called with each progress notification of this request. */
  onProgress(listener: (progress: McpTestProgress) => void): this {
    this.hooks.onProgress = listener;
    return this;
  }

  /** Called with each log message (`notifications/message`) the server sends while this request runs. */
  onLog(listener: (log: McpTestLog) => void): this {
    this.hooks.onLog = listener;
    return this;
  }

  /** Answers the input requests (elicitation, sampling) the server makes while this request runs. */
  answer(answerer: McpQuestionAnswerer): this {
    this.hooks.answer = answerer;
    return this;
  }

  // oxlint-disable-next-line unicorn/no-thenable -- awaiting the chain is the point (as supertest's Test)
  then<T1 = McpTestAnswer<R>, T2 = never>(
    onFulfilled?: ((answer: McpTestAnswer<R>) => T1 | PromiseLike<T1>) | null,
    onRejected?: ((reason: unknown) => T2 | PromiseLike<T2>) | null,
  ): Promise<T1 | T2> {
    this.running ??= this.run(this.hooks).then((answer) => {
      runChecks(this.label, answer, this.queued);
      return answer;
    });
    return this.running.then(onFulfilled, onRejected);
  }

  catch<T = never>(
    onRejected?: ((reason: unknown) => T | PromiseLike<T>) | null,
  ): Promise<McpTestAnswer<R> | T> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<McpTestAnswer<R>> {
    return this.then().finally(onFinally);
  }

  private queue(
    method: (...args: never[]) => unknown,
    asked: string,
    check: QueuedCheck['check'],
  ): this {
    if (this.running) {
      throw new Error(
        `${this.label}.${asked}: this request was already awaited; queue assertions before awaiting it.`,
      );
    }
    const site: { stack?: string } = {};
    // The stack starts above the assertion method: at the test line that called it.
    Error.captureStackTrace(site, method);
    this.queued.push({ asked, check, site });
    return this;
  }
}
