// A caller of the scale-out fixture (test/fixtures/redis/jobs.app.ts): 2026-07-28 requests
// with its token, declaring elicitation and the tasks extension.
import { setTimeout as pause } from 'node:timers/promises';
import { JOBS_TOKEN } from '../fixtures/redis/jobs.app.js';
import { MODERN_VERSION, modernMeta } from './mcp-post.js';
import { TASKS_EXTENSION } from './task-wire.js';

let id = 0;

/**
 * One 2026-07-28 request to the endpoint at `url` with a bearer token, declaring the tasks
 * extension and the client capabilities given: the HTTP status and the JSON-RPC message
 * (the last one of an SSE answer).
 */
export async function callWithToken(
  url: string | URL,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
      'MCP-Protocol-Version': MODERN_VERSION,
      'Mcp-Method': method,
      ...(typeof params.name === 'string' && { 'Mcp-Name': params.name }),
      ...(typeof params.taskId === 'string' && { 'Mcp-Name': params.taskId }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: (id += 1),
      method,
      params: {
        ...params,
        _meta: {
          ...modernMeta(),
          'io.modelcontextprotocol/clientCapabilities': {
            ...capabilities,
            extensions: { [TASKS_EXTENSION]: {} },
          },
        },
      },
    }),
  });
  const text = await res.text();
  const data = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6);
  return { status: res.status, message: JSON.parse(data) as Record<string, any> };
}

/** One request to the fixture's endpoint at `url`, as its caller (who may be asked questions). */
export const callJobs = (url: string, method: string, params: Record<string, unknown> = {}) =>
  callWithToken(url, JOBS_TOKEN, method, params, { elicitation: {} });

/** `tasks/get` through the endpoint at `url`: the task as that instance reads it. */
export const taskAt = (url: string, taskId: string) =>
  callJobs(url, 'tasks/get', { taskId }).then(({ message }) => message.result);

/** Reads until `done` holds, every 50 ms; fails with the last value after `ms`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await pause(50);
    value = await read();
  }
  return value;
}
