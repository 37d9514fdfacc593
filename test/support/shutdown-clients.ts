// The clients of the shutdown-under-load tests (test/transports/http/shutdown-under-load.
// e2e-spec.ts), on plain `node:http`, one connection per request, so that what each call
// and stream came to is seen as it crossed the wire: an answer, or a reset (ECONNRESET,
// "socket hang up", a body cut before its last chunk). bench/support/shutdown-clients.ts
// is the bench's version of the same clients.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { MODERN_VERSION, modernMeta } from './mcp-post.js';

const LEGACY_VERSION = '2025-11-25';

/** What one exchange came to: its whole answer, or how the connection failed. */
export type Exchange =
  | { kind: 'answered'; status: number; headers: IncomingHttpHeaders; text: string }
  | { kind: 'reset'; code: string };

let nextId = 1;

/** Sends one request on a connection of its own; `onText` sees the answer (from its head on). */
export function exchange(
  url: URL,
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  onText?: (textSoFar: string) => void,
): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Exchange) => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    const req = httpRequest(
      url,
      { method: request.method, headers: request.headers, agent: false },
      (res) => {
        let text = '';
        // The head alone tells that a 2025 GET stream is up: it sends nothing until an event.
        onText?.(text);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          onText?.(text);
        });
        res.on('end', () =>
          done({ kind: 'answered', status: res.statusCode ?? 0, headers: res.headers, text }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          done({ kind: 'reset', code: error.code ?? error.message }),
        );
        res.on('close', () => {
          if (!res.complete) done({ kind: 'reset', code: 'cut before its end' });
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      done({ kind: 'reset', code: error.code ?? error.message }),
    );
    req.end(request.body);
  });
}

/** The JSON-RPC messages of an answer, sent as JSON or as SSE events. */
export function messagesOf(text: string): Record<string, any>[] {
  if (text.trimStart().startsWith('{')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)));
}

/** The answer to request `id` in an exchange: its status and JSON-RPC message, or the reset. */
export function answerTo(id: number, outcome: Exchange) {
  if (outcome.kind === 'reset') return { reset: outcome.code };
  const message = messagesOf(outcome.text).find((candidate) => candidate.id === id);
  return { status: outcome.status, message };
}

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A 2026-07-28 request, with its id. */
export function modernRequest(method: string, params: Record<string, unknown> = {}) {
  const id = nextId++;
  return {
    id,
    method: 'POST' as const,
    headers: {
      ...JSON_HEADERS,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof params.name === 'string' && { 'mcp-name': params.name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: modernMeta('shutdown-spec') },
    }),
  };
}

/** A request on a 2025 session, with its id. */
export function sessionRequest(sessionId: string, method: string, params?: unknown) {
  const id = nextId++;
  return {
    id,
    method: 'POST' as const,
    headers: {
      ...JSON_HEADERS,
      'mcp-protocol-version': LEGACY_VERSION,
      'mcp-session-id': sessionId,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }),
  };
}

/** Opens a 2025 session: `initialize`, then `notifications/initialized`; resolves with its id. */
export async function openSession(url: URL): Promise<string> {
  const initialize = {
    method: 'POST' as const,
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'shutdown-spec', version: '1' },
      },
    }),
  };
  const opened = await exchange(url, initialize);
  const sessionId = opened.kind === 'answered' ? opened.headers['mcp-session-id'] : undefined;
  if (typeof sessionId !== 'string') throw new Error(`no session: ${JSON.stringify(opened)}`);
  const initialized = sessionRequest(sessionId, 'notifications/initialized');
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await exchange(url, { ...initialized, body });
  return sessionId;
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream, or a 2025 session's GET stream, and
 * resolves once it is up (acknowledged, or its head came) with `ended`: how it ended, later.
 */
export function openStream(url: URL, sessionId?: string) {
  const listen = modernRequest('subscriptions/listen', {
    notifications: { toolsListChanged: true },
  });
  const request = sessionId
    ? {
        method: 'GET' as const,
        headers: {
          accept: 'text/event-stream',
          'mcp-protocol-version': LEGACY_VERSION,
          'mcp-session-id': sessionId,
        },
      }
    : listen;
  return new Promise<{ ended: Promise<Exchange>; id: number }>((resolve, reject) => {
    let up = false;
    const ended = exchange(url, request, (text) => {
      const ready = sessionId !== undefined || text.includes('subscriptions/acknowledged');
      if (ready && !up) {
        up = true;
        resolve({ ended, id: listen.id });
      }
    });
    void ended.then((outcome) => {
      if (!up) reject(new Error(`the stream did not open: ${JSON.stringify(outcome)}`));
    });
  });
}
