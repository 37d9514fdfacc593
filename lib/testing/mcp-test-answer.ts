/** A JSON-RPC error as the server answered it (or the refusal of the HTTP layer). */
export interface McpTestError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The HTTP exchange that carried an answer: absent for a client connected in memory. */
export interface McpTestHttpResponse {
  readonly status: number;
  /** The response headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What one request of an `McpTestClient` got back: exactly one of `result` and `error`,
 * and the HTTP response when the client drives the app's endpoint over HTTP.
 * @publicApi
 */
export interface McpTestAnswer<R = Record<string, any>> {
  /** The request, as it was sent: `tools/call`, `tools/list`, ... */
  readonly method: string;
  readonly params?: Record<string, unknown>;
  /** The result of a successful request (a tool's `isError` result is a result too). */
  readonly result?: R;
  /**
   * The JSON-RPC error. A refusal by the HTTP layer (a guard's 401 or 403, a 413) is one
   * too: the JSON-RPC error of its body, or `code: -32000` with the body's message when
   * the body is not JSON-RPC (a Nest exception).
   */
  readonly error?: McpTestError;
  readonly response?: McpTestHttpResponse;
}

/** The MCP SDK's generic server error code, which the endpoint also uses for transport refusals. */
export const TRANSPORT_REFUSAL_CODE = -32000;

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null;

/**
 * The text the answer carries for a reader: the text blocks of a tool result, the text of
 * a prompt's messages, the text contents of a resource, or the error's message. Blocks are
 * joined with a newline.
 */
export function answerText(answer: McpTestAnswer<unknown>): string | undefined {
  if (answer.error) return answer.error.message;
  const result = answer.result;
  if (!isObject(result)) return undefined;
  const texts: string[] = [];
  const fromBlock = (block: unknown) => {
    if (!isObject(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'resource' && typeof block.resource?.text === 'string') {
      texts.push(block.resource.text);
    }
  };
  if (Array.isArray(result.content)) result.content.forEach(fromBlock);
  if (Array.isArray(result.messages)) {
    for (const message of result.messages) fromBlock(isObject(message) ? message.content : message);
  }
  if (Array.isArray(result.contents)) {
    for (const content of result.contents) {
      if (isObject(content) && typeof content.text === 'string') texts.push(content.text);
    }
  }
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** Every string anywhere in the answer's result or error (texts, names, descriptions, values). */
export function answerStrings(answer: McpTestAnswer<unknown>): string[] {
  const found: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 64) return;
    if (typeof value === 'string') found.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean') found.push(String(value));
    else if (Array.isArray(value)) value.forEach((item) => walk(item, depth + 1));
    else if (isObject(value)) Object.values(value).forEach((item) => walk(item, depth + 1));
  };
  walk(answer.result, 0);
  walk(answer.error, 0);
  return found;
}

/** Whether the answer is a failure: a JSON-RPC error, or a result with `isError: true`. */
export function isFailure(answer: McpTestAnswer<unknown>): boolean {
  return answer.error !== undefined || (isObject(answer.result) && answer.result.isError === true);
}

/** The answer as the failure messages print it: pretty JSON, the HTTP status first. */
export function printAnswer(answer: McpTestAnswer<unknown>): string {
  const shown: Record<string, unknown> = {};
  if (answer.response) shown.response = answer.response;
  if (answer.error) shown.error = answer.error;
  else shown.result = answer.result;
  return JSON.stringify(shown, null, 2);
}
