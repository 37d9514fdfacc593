// The clients of the shutdown-under-load run (bench/shutdown.ts), on plain `node:http`, one
// connection per request: what each call and each stream came to when the server shut down.
// A reset (ECONNRESET, "socket hang up", a body cut before its end) is told apart from an
// answer, from a refusal the server wrote, and from a connection refused because the server
// no longer listens.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';

/** What one exchange came to. */
export type Exchange =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; text: string }
  /** The connection failed or was cut before the whole answer came. */
  | { kind: 'failed'; code: string; status?: number; text?: string };

/** What a call came to. */
export type CallOutcome =
  /** Its tool's result. */
  | 'result'
  /** A result with `isError`, or a JSON-RPC error (the shutdown's own, past the grace). */
  | 'error-answer'
  /** 503 with the JSON-RPC error of a server that is shutting down. */
  | 'shutting-down'
  /** The server no longer listened (ECONNREFUSED): the client retries elsewhere. */
  | 'not-listening'
  /** Reset, hung up, cut mid-body, or an answer that is no JSON-RPC message. */
  | 'broken'
  /** Still unanswered when the run gave up waiting. */
  | 'hung';

/** What a stream came to. */
export type StreamOutcome =
  /** The 2026-07-28 final `subscriptions/listen` result, or a 2025 stream ended cleanly. */
  | 'ended'
  /** Ended without its final result, reset or cut. */
  | 'broken'
  | 'hung';

let nextId = 1;

export interface Target {
  readonly port: number;
  readonly path: string;
}

/** One HTTP exchange on a connection of its own; `onChunk` sees the answer from its head on. */
export function exchange(
  target: Target,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: string,
  onChunk?: (text: string) => void,
): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Exchange) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = httpRequest(
      { host: '127.0.0.1', port: target.port, path: target.path, method, headers, agent: false },
      (res) => {
        let text = '';
        // The head alone tells that a 2025 GET stream is up: it sends nothing until an event.
        onChunk?.(text);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          onChunk?.(chunk);
        });
        res.on('end', () =>
          done({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, text }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          done({ kind: 'failed', code: error.code ?? error.message, status: res.statusCode, text }),
        );
        res.on('close', () => {
          if (!res.complete) done({ kind: 'failed', code: 'CUT', status: res.statusCode, text });
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      done({ kind: 'failed', code: error.code ?? error.message }),
    );
    req.end(body);
  });
}

/** The JSON-RPC messages of an answer, JSON or SSE. */
export function messagesOf(text: string): Record<string, any>[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return [JSON.parse(trimmed)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)));
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'shutdown-bench', version: '1' },
};

const jsonHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A 2026-07-28 request: its headers and body. */
export function modernRequest(method: string, params: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {
    ...jsonHeaders,
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  const id = nextId++;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: modernMeta },
  });
  return { id, headers, body };
}

/** A request on a 2025 session. */
export function sessionRequest(sessionId: string, method: string, params?: unknown) {
  const id = nextId++;
  return {
    id,
    headers: {
      ...jsonHeaders,
      'mcp-protocol-version': LEGACY_VERSION,
      'mcp-session-id': sessionId,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }),
  };
}

/** Opens a 2025 session (initialize, then `notifications/initialized`): its id. */
export async function openSession(target: Target): Promise<string> {
  const init = await exchange(
    target,
    'POST',
    jsonHeaders,
    JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'shutdown-bench', version: '1' },
      },
    }),
  );
  const sessionId = init.kind === 'response' ? init.headers['mcp-session-id'] : undefined;
  if (typeof sessionId !== 'string') {
    throw new Error(`initialize failed: ${JSON.stringify(init).slice(0, 300)}`);
  }
  const initialized = await exchange(
    target,
    'POST',
    sessionRequest(sessionId, '').headers,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  );
  if (initialized.kind !== 'response' || initialized.status !== 202) {
    throw new Error(
      `notifications/initialized failed: ${JSON.stringify(initialized).slice(0, 300)}`,
    );
  }
  return sessionId;
}

/** What a call's exchange came to. */
export function callOutcomeOf(answer: Exchange): CallOutcome {
  if (answer.kind === 'failed') return answer.code === 'ECONNREFUSED' ? 'not-listening' : 'broken';
  let messages: Record<string, any>[];
  try {
    messages = messagesOf(answer.text);
  } catch {
    return 'broken';
  }
  const last = messages.findLast((message) => 'result' in message || 'error' in message);
  if (!last) return 'broken';
  if (last.error) {
    return answer.status === 503 && /shutting down/i.test(String(last.error.message))
      ? 'shutting-down'
      : 'error-answer';
  }
  return last.result?.isError ? 'error-answer' : 'result';
}

/** A stream, open: resolves once its head (and, for a listen stream, its acknowledgement) came. */
export interface OpenStream {
  readonly outcome: Promise<{ outcome: StreamOutcome; detail?: string }>;
}

/**
 * Opens a stream and resolves once it is established. A 2026-07-28 listen stream ends well
 * with its final result (the listen request's id); a 2025 GET stream ends well when its body
 * ends (the chunked encoding's last chunk).
 */
export function openStream(
  target: Target,
  kind: 'listen' | 'session',
  sessionId?: string,
): Promise<OpenStream> {
  return new Promise((resolveOpen, rejectOpen) => {
    let opened = false;
    let request: { id: number; headers: Record<string, string>; body?: string };
    if (kind === 'listen') {
      request = modernRequest('subscriptions/listen', {
        notifications: { toolsListChanged: true },
      });
    } else {
      request = {
        id: 0,
        headers: {
          accept: 'text/event-stream',
          'mcp-protocol-version': LEGACY_VERSION,
          'mcp-session-id': sessionId!,
        },
      };
    }
    let text = '';
    const outcome = exchange(
      target,
      kind === 'listen' ? 'POST' : 'GET',
      request.headers,
      request.body,
      (chunk) => {
        text += chunk;
        // A listen stream is up once acknowledged; a 2025 stream once its head came.
        const up = kind === 'session' || text.includes('subscriptions/acknowledged');
        if (up && !opened) {
          opened = true;
          resolveOpen({ outcome: ended });
        }
      },
    ).then((answer) => {
      if (!opened)
        rejectOpen(new Error(`stream not opened: ${JSON.stringify(answer).slice(0, 300)}`));
      return answer;
    });
    const ended = outcome.then((answer) => {
      if (answer.kind === 'failed') return { outcome: 'broken' as const, detail: answer.code };
      if (kind === 'session') return { outcome: 'ended' as const };
      const final = messagesOf(answer.text).find(
        (message) => message.id === request.id && message.result?.resultType === 'complete',
      );
      return final
        ? { outcome: 'ended' as const }
        : { outcome: 'broken' as const, detail: 'no final result' };
    });
  });
}
