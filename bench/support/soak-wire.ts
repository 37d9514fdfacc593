import { LEGACY_VERSION, MCP_PATH, MODERN_VERSION } from './wire.js';
import type { SoakAnswer, SoakRequest } from './soak-http.js';

// The requests of the soak as each era's client sends them, and the checks of their
// answers: a check returns what is wrong with an answer, or undefined when it is the one
// the mix asked for.

export const SESSIONS_PATH = `${MCP_PATH}/sessions`;
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type Check = (answer: SoakAnswer) => string | undefined;

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export interface ModernOptions {
  token: string;
  /** Declares the tasks extension in the request's client capabilities. */
  tasks?: boolean;
  progressToken?: string | number;
}

/** A 2026-07-28 request: the `_meta` envelope and the `Mcp-Method`/`Mcp-Name` headers. */
export function modernRequest(
  id: number,
  method: string,
  params: Record<string, unknown>,
  { token, tasks, progressToken }: ModernOptions,
): SoakRequest {
  const name = params.name ?? params.taskId ?? params.uri;
  const headers: Record<string, string> = {
    ...JSON_HEADERS,
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' && { 'mcp-name': name }),
  };
  const _meta = {
    ...(progressToken !== undefined && { progressToken }),
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': tasks
      ? { extensions: { [TASKS_EXTENSION]: {} } }
      : {},
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } });
  return { method: 'POST', path: MCP_PATH, headers, body };
}

/** A 2025-11-25 request: stateless on `/mcp`, or in a session on the sessions path. */
export function legacyRequest(
  id: number | undefined,
  method: string,
  params: Record<string, unknown> | undefined,
  token: string,
  sessionId?: string,
): SoakRequest {
  const headers: Record<string, string> = {
    ...JSON_HEADERS,
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': LEGACY_VERSION,
    ...(sessionId !== undefined && { 'mcp-session-id': sessionId }),
  };
  const message = {
    jsonrpc: '2.0',
    ...(id !== undefined && { id }),
    method,
    ...(params && { params }),
  };
  const path = sessionId === undefined && method !== 'initialize' ? MCP_PATH : SESSIONS_PATH;
  return { method: 'POST', path, headers, body: JSON.stringify(message) };
}

export function deleteSession(token: string, sessionId: string): SoakRequest {
  return {
    method: 'DELETE',
    path: SESSIONS_PATH,
    headers: {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': LEGACY_VERSION,
      'mcp-session-id': sessionId,
    },
  };
}

const shortText = (answer: SoakAnswer) =>
  `HTTP ${answer.status} ${answer.text.replaceAll(/\s+/g, ' ').slice(0, 300)}`;

/** The JSON-RPC result of a 200 answer, or what is wrong with it. */
export function resultOf(answer: SoakAnswer): Record<string, any> | string {
  if (answer.status !== 200) return `unexpected status: ${shortText(answer)}`;
  const response = answer.messages.find((message) => 'result' in message || 'error' in message);
  if (!response) return `no JSON-RPC response: ${shortText(answer)}`;
  if (response.error) return `JSON-RPC error: ${shortText(answer)}`;
  return response.result;
}

const textOf = (result: Record<string, any>): unknown => result.content?.[0]?.text;

/** A tool result that is not an error, whose first text is `expected`. */
export const toolText =
  (expected: string): Check =>
  (answer) => {
    const result = resultOf(answer);
    if (typeof result === 'string') return result;
    if (result.isError) return `unexpected isError: ${shortText(answer)}`;
    return textOf(result) === expected ? undefined : `unexpected text: ${shortText(answer)}`;
  };

/** The `isError` result the mix asked for: its text starts with `prefix`. */
export const toolError =
  (prefix: string): Check =>
  (answer) => {
    const result = resultOf(answer);
    if (typeof result === 'string') return result;
    const text = textOf(result);
    return result.isError === true && typeof text === 'string' && text.startsWith(prefix)
      ? undefined
      : `expected an isError result starting "${prefix}": ${shortText(answer)}`;
  };

/** A result for which `test` holds. */
export const resultWhere =
  (what: string, test: (result: Record<string, any>) => boolean): Check =>
  (answer) => {
    const result = resultOf(answer);
    if (typeof result === 'string') return result;
    return test(result) ? undefined : `expected ${what}: ${shortText(answer)}`;
  };

/** A plain HTTP answer with this status (a refusal before MCP, a 202, a DELETE). */
export const httpStatus =
  (status: number): Check =>
  (answer) =>
    answer.status === status ? undefined : `expected HTTP ${status}: ${shortText(answer)}`;

export { shortText };
