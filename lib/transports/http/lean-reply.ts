/** The answers of the lean and fast paths: JSON text, or the SSE stream of a request that notified. */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DirectOutcome } from '../../protocol/direct-serving.js';
import type { ClientGone } from './client-gone.js';
import type { FastRoute } from './fast-path.rules.js';
import type { LeanEventStream } from './lean-event.stream.js';
import { statusOf } from './lean-path.rules.js';

/** A lean answer, ready to write: the status and the JSON text of the JSON-RPC response. */
export interface LeanReply {
  readonly status: number;
  readonly text: string;
}

/** A JSON answer, or the stream of a request that notified before its response. */
export type Answer = LeanReply | Response;

/** An answer, and the JSON text of its result when it is one (lists keep it). */
export interface Served {
  readonly reply: Answer;
  readonly result?: string;
}

/** The headers of a streamed answer: those of the SDK's per-request transport. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * The web request the SDK hands handlers as `ctx.http.req`, on the lean path: no undici
 * `Request` is made (bench/README.md: about 27 us each). It offers the method, the URL, the
 * headers and the exchange's abort signal, each made when first read.
 */
export function standInRequest(request: IncomingMessage, gone: ClientGone): Request {
  let headers: Headers | undefined;
  return {
    method: 'POST',
    get url() {
      return `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
    },
    get signal() {
      return gone.signal;
    },
    get headers() {
      if (!headers) {
        headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value === undefined || name.startsWith(':')) continue;
          if (Array.isArray(value)) for (const item of value) headers.append(name, item);
          else headers.set(name, value);
        }
      }
      return headers;
    },
  } as unknown as Request;
}

/**
 * The answer of a request the fast path served: on the stream it opened, or as JSON with
 * the status the SDK's transport gives it (a handler's error is 200, but -32021 is 400).
 */
export function directReply(
  { era, message }: FastRoute,
  done: Exclude<DirectOutcome, { kind: 'sdk' }>,
  events: LeanEventStream | undefined,
  gone: ClientGone,
): Served {
  const response: JSONRPCMessage =
    done.kind === 'result'
      ? { result: done.result, jsonrpc: '2.0', id: message.id }
      : { jsonrpc: '2.0', id: message.id, error: done.error };
  if (events) {
    events.end(response);
    return { reply: { status: 200, text: '' } };
  }
  // The SDK's entry answers 499 (no body) to an exchange closed before its answer.
  if (gone.aborted) return { reply: { status: 499, text: '' } };
  if (done.kind === 'error') {
    return {
      reply: { status: statusOf(era, done.error.code, false), text: JSON.stringify(response) },
    };
  }
  const result = JSON.stringify(done.result);
  return { reply: { status: 200, text: reply(result, message.id) }, result };
}

/** The JSON-RPC response around a result's JSON text, in the SDK's key order. */
export function reply(result: string, id: string | number): string {
  return `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/** Writes a lean answer with one `res.end()`, as the SDK's entry writes a JSON answer. */
export function writeLeanReply({ status, text }: LeanReply, res: ServerResponse): void {
  if (text === '') {
    res.writeHead(status).end();
    return;
  }
  const body = Buffer.from(text);
  res
    .writeHead(status, { 'content-type': 'application/json', 'content-length': body.byteLength })
    .end(body);
}
