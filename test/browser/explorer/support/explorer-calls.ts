// The MCP requests an explorer page sends and the answers it gets, read off the wire, so a
// test can say what reached the server and compare what the page shows with it.
import { execFile } from 'node:child_process';
import type { Page, Request } from 'playwright-core';

export interface SentCall {
  readonly method: string;
  readonly params: Record<string, any>;
  /** The request's headers, names in lower case. */
  readonly headers: Record<string, string>;
  /** The JSON-RPC answer (the last message of an SSE stream), once it arrived. */
  readonly answer: Promise<Record<string, any> | undefined>;
}

/** The JSON-RPC message of an answer: a JSON body, or the last `data:` of an SSE stream. */
export function messageOfBody(body: string): Record<string, any> | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed);
  const messages = trimmed
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((data) => data.startsWith('{'))
    .map((data) => JSON.parse(data) as Record<string, any>);
  // Progress and logs come first; the answer is the message with the request's id.
  return messages.findLast((message) => 'result' in message || 'error' in message);
}

async function answerOf(request: Request): Promise<Record<string, any> | undefined> {
  const response = await request.response();
  if (!response) return undefined;
  try {
    return messageOfBody(await response.text());
  } catch {
    // A call cancelled by the page ends without a readable body.
    return undefined;
  }
}

/** Every JSON-RPC request the page POSTs from now on, with its answer. */
export function recordCalls(page: Page): SentCall[] {
  const calls: SentCall[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    let body: Record<string, any> | undefined;
    try {
      body = request.postDataJSON();
    } catch {
      return;
    }
    if (typeof body?.method !== 'string' || body.id === undefined) return;
    calls.push({
      method: body.method,
      params: body.params ?? {},
      headers: request.headers(),
      answer: answerOf(request),
    });
  });
  return calls;
}

/** The `tools/call` requests among `calls`, as `name` and `arguments`. */
export const toolCalls = (calls: SentCall[]) =>
  calls
    .filter((call) => call.method === 'tools/call')
    .map((call) => ({ name: call.params.name, arguments: call.params.arguments }));

/**
 * Runs a command line as a user pasting it into a shell would (`sh -c`), and resolves with
 * what it printed; rejects with its stderr when it fails.
 */
export function runInShell(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', command], { timeout: 10_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command}\nfailed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}
