// Clients that misbehave on purpose, over raw HTTP (each on a connection of its own, never a
// pooled one, so that what the server holds for it can be told apart): a reader that stops
// reading, a body sent a byte at a time, headers that never end.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { getEventListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MODERN_VERSION, modernMeta } from '../../support/mcp-post.js';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/** The headers of a 2026-07-28 request for `method` (and `Mcp-Name` for a tool's `name`). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
  };
}

/** A 2026-07-28 request message, with the `_meta` envelope (and `extraMeta`). */
export function modernMessage(
  method: string,
  params: Record<string, unknown> = {},
  extraMeta: Record<string, unknown> = {},
) {
  return {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: { ...modernMeta('slow-clients-spec'), ...extraMeta } },
  };
}

/** Sends a request on a connection of its own, and leaves it (a client that goes away). */
export function send(url: URL, { method = 'POST', headers = {}, body }: RawRequest = {}) {
  const req = httpRequest(url, { method, headers, agent: false });
  req.end(body === undefined ? undefined : JSON.stringify(body));
  return req;
}

/** Sends a request on a connection of its own; resolves with its head and its response. */
export function open(url: URL, init: RawRequest = {}) {
  return new Promise<{ response: IncomingMessage; destroy(): void }>((resolve, reject) => {
    const req = send(url, init);
    req.on('response', (response) => resolve({ response, destroy: () => req.destroy() }));
    req.on('error', reject);
  });
}

/** One request, answered in full. */
export async function exchange(url: URL, init: RawRequest): Promise<RawAnswer> {
  const { response } = await open(url, init);
  let text = '';
  response.setEncoding('utf8');
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, headers: response.headers, text };
}

/** The JSON-RPC messages of an answer, sent as JSON or as SSE events. */
export function messagesOf(answer: RawAnswer): Array<Record<string, any>> {
  if (!answer.headers['content-type']?.startsWith('text/event-stream')) {
    return [JSON.parse(answer.text)];
  }
  return (
    answer.text
      .split('\n')
      // A priming event (the SDK's, for resumption) has no data.
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)))
  );
}

/** A 2026-07-28 `tools/call`, answered in full. */
export const callTool = (url: URL, name: string, meta: Record<string, unknown> = {}) =>
  exchange(url, {
    headers: modernHeaders('tools/call', name),
    body: modernMessage('tools/call', { name, arguments: {} }, meta),
  });

/** A stream whose client stops reading once its head has come, until `resume()`. */
export interface PausedStream {
  readonly status: number;
  /** Reads again; resolves once the stream has ended (closed by the server). */
  resume(): Promise<void>;
  destroy(): void;
}

export async function pausedStream(url: URL, init: RawRequest): Promise<PausedStream> {
  const { response, destroy } = await open(url, init);
  // The socket itself stops: nothing more is read into the client's buffers.
  response.pause();
  response.socket.pause();
  const ended = new Promise<void>((done) => response.once('close', () => done()));
  response.on('error', () => {});
  return {
    status: response.statusCode ?? 0,
    async resume() {
      response.socket.resume();
      response.resume();
      await ended;
    },
    destroy,
  };
}

/**
 * Calls `publish` by thousands, letting the server write between two thousands, until
 * `done()` holds (or `max` calls, so that a test that fails still ends).
 */
export async function publishUntil(publish: () => void, done: () => boolean, max = 400_000) {
  let sent = 0;
  while (sent < max && !done()) {
    for (let i = 0; i < 1000; i++) publish();
    sent += 1000;
    await nextTurn();
  }
  return sent;
}

/**
 * Records every `AbortSignal` given an `abort` listener while it is installed; `most()` is
 * the largest number of `abort` listeners one of them holds now.
 */
export function watchAbortListeners() {
  const signals = new Set<AbortSignal>();
  const original = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (
    this: EventTarget,
    ...args: Parameters<EventTarget['addEventListener']>
  ) {
    if (args[0] === 'abort' && this instanceof AbortSignal) signals.add(this);
    return original.apply(this, args);
  };
  return {
    most: () =>
      Math.max(0, ...[...signals].map((signal) => getEventListeners(signal, 'abort').length)),
    restore() {
      EventTarget.prototype.addEventListener = original;
      signals.clear();
    },
  };
}

/** A raw connection and everything the server sent on it, until it closes. */
export function rawConnection(url: URL): Promise<{
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      // A reset after the answer (bytes sent after the server closed) is not a failure here.
      socket.on('error', () => {});
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
  });
}
