import { isJsonContentType } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { describeJsonInputProblem, findJsonInputProblem } from '../../utils/json-input.util.js';
import {
  contentCodingOf,
  inflate,
  InflationError,
  type ContentCoding,
} from './content-encoding.inflater.js';
import { httpErrors } from './json-rpc-error.response.js';

/** A body read and checked, or the answer that refuses it. */
export type JsonBodyOutcome = { ok: true; body: unknown } | { ok: false; answer: Response };

export interface JsonBodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** How long a body may take to arrive (`http.bodyTimeoutMs`); no bound when left out. */
  bodyTimeoutMs?: number;
}

/** A body that did not arrive in time: answered 408, and its connection closed. */
export class BodyTimeoutError extends Error {
  /** Fastify reads this when the error ends the body: the answer is ours (fastify-route.hook.ts). */
  readonly statusCode = 408;

  constructor(readonly timeoutMs: number) {
    super(`the request body did not arrive within ${timeoutMs} ms`);
  }
}

/**
 * Calls `expire` once `timeoutMs` have passed: one timer per request, which the reader
 * clears when the body is in, and none for a body that came with the headers.
 */
export function bodyDeadline(
  request: IncomingMessage,
  timeoutMs: number | undefined,
  expire: (error: BodyTimeoutError) => void,
): NodeJS.Timeout | undefined {
  if (timeoutMs === undefined || request.complete) return undefined;
  return setTimeout(() => expire(new BodyTimeoutError(timeoutMs)), timeoutMs).unref();
}

/**
 * Reads the JSON body of a POST from the Node stream, the endpoint's own way on every
 * platform: only `application/json`, at most `maxBodyBytes` (counted while reading; the
 * read stops there, so an oversized body is never held whole), inflated first when it is
 * compressed (`Content-Encoding`, with the same bound after inflation: see
 * `content-encoding.inflater.ts`), within `bodyTimeoutMs` (else 408), parsed with a
 * message that says what is wrong, then {@link checkJsonBody}.
 */
export async function readJsonBody(
  request: IncomingMessage,
  limits: JsonBodyLimits,
): Promise<JsonBodyOutcome> {
  const refused = refuseMediaType(request) ?? refuseContentCoding(request);
  if (refused) return refused;
  const coding = contentCodingOf(request.headers) || undefined;
  let text: string | undefined;
  try {
    text = coding
      ? await readInflatedText(request, coding, limits)
      : await readText(request, limits);
  } catch (error) {
    if (error instanceof BodyTimeoutError) {
      return { ok: false, answer: httpErrors.bodyTimeout(error.timeoutMs) };
    }
    if (!(error instanceof InflationError)) throw error;
    discardRestOfBody(request);
    return { ok: false, answer: inflationRefusal(error, limits.maxBodyBytes) };
  }
  if (text === undefined) {
    discardRestOfBody(request);
    return { ok: false, answer: httpErrors.tooLarge(limits.maxBodyBytes) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      answer: httpErrors.parseError(
        text.length === 0 ? 'the body is empty' : (error as Error).message,
      ),
    };
  }
  return checkJsonBody(body, limits.maxJsonDepth);
}

/**
 * A body the platform already parsed, checked as one read here is: media type, then
 * {@link checkJsonBody}.
 */
export function checkParsedJsonBody(
  request: IncomingMessage,
  body: unknown,
  maxJsonDepth: number,
): JsonBodyOutcome {
  return refuseMediaType(request) ?? checkJsonBody(body, maxJsonDepth);
}

/** A body in a coding the endpoint cannot inflate is refused unread: 415, naming those it can. */
function refuseContentCoding(request: IncomingMessage): JsonBodyOutcome | undefined {
  if (contentCodingOf(request.headers) !== false) return undefined;
  return {
    ok: false,
    answer: httpErrors.unsupportedEncoding(String(request.headers['content-encoding'])),
  };
}

/** The answer to a compressed body refused while it was inflated. */
export function inflationRefusal(error: InflationError, maxBodyBytes: number): Response {
  if (error.reason === 'too-large') return httpErrors.tooLarge(maxBodyBytes);
  if (error.reason === 'ratio') return httpErrors.inflationBomb(error.message);
  return httpErrors.parseError(error.message);
}

/** The inflated body as UTF-8 text; an {@link InflationError} when it is refused. */
function readInflatedText(
  request: IncomingMessage,
  coding: ContentCoding,
  { maxBodyBytes, bodyTimeoutMs }: JsonBodyLimits,
): Promise<string> {
  if (Number(request.headers['content-length']) > maxBodyBytes) {
    return Promise.reject(new InflationError('too-large', 'declared too large'));
  }
  // Read by someone else already: nothing more comes (as in readText).
  if (request.readableEnded) return Promise.resolve('');
  const body = inflate(request, coding, maxBodyBytes);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = bodyDeadline(request, bodyTimeoutMs, (error) => {
      request.unpipe();
      request.pause();
      body.destroy();
      reject(error);
    });
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    body.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Only `application/json` (with any parameters) is read. */
function refuseMediaType(request: IncomingMessage): JsonBodyOutcome | undefined {
  const contentType = request.headers['content-type'];
  if (isJsonContentType(contentType)) return undefined;
  return { ok: false, answer: httpErrors.unsupportedMediaType(contentType) };
}

/** Refuses a parsed body that nests too deep or carries a prototype-pollution key. */
export function checkJsonBody(body: unknown, maxJsonDepth: number): JsonBodyOutcome {
  const problem = findJsonInputProblem(body, maxJsonDepth);
  if (problem)
    return { ok: false, answer: httpErrors.invalidInput(describeJsonInputProblem(problem)) };
  return { ok: true, body };
}

/**
 * The body as UTF-8 text, or `undefined` once more than `maxBodyBytes` have arrived; a
 * {@link BodyTimeoutError} when it is not in after `bodyTimeoutMs`.
 */
function readText(
  request: IncomingMessage,
  { maxBodyBytes: maxBytes, bodyTimeoutMs }: JsonBodyLimits,
): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) return Promise.resolve(undefined);
  // Read by someone else already (a body parser that left no `body`): nothing more comes.
  if (request.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const timer = bodyDeadline(request, bodyTimeoutMs, (error) => {
      // The rest is not read: the answer closes the connection.
      stop();
      request.pause();
      chunks.length = 0;
      reject(error);
    });
    const stop = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) {
        // Stop keeping the body and drop what came: the rest is discarded (see
        // discardRestOfBody) while the answer says 413.
        stop();
        request.pause();
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, received).toString('utf8'));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

/** How much of a refused body is still read, and dropped, before the connection is closed. */
export const DISCARD_LIMITS = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

/**
 * Reads and drops the rest of a body that is refused as too large, so that the client can
 * read the 413. A server that closes a connection while request bytes are still arriving
 * makes its TCP stack answer them with a reset, which can erase the answer before the
 * client has read it (RFC 9112, section 9.6): Node's fetch in another process then saw
 * "fetch failed" (EPIPE) instead of the 413 in half of the requests or more, on Express and
 * Fastify. So the answer does not close the connection: once the body has arrived the
 * connection serves the next request, and a client that goes on sending for more than
 * `DISCARD_LIMITS.maxBytes` or `DISCARD_LIMITS.maxMs` after the refusal has its connection
 * closed. Nothing is kept, and other readers (a pipe into a platform's parser) are
 * detached first.
 */
export function discardRestOfBody(
  request: IncomingMessage,
  { maxBytes, maxMs } = DISCARD_LIMITS,
): void {
  if (request.readableEnded || request.destroyed) return;
  request.unpipe();
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    request.off('data', onData);
    request.off('end', done);
    request.off('close', done);
    request.off('error', done);
  };
  const giveUp = () => {
    done();
    request.destroy();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > maxBytes) giveUp();
  };
  const timer = setTimeout(giveUp, maxMs).unref();
  request.on('data', onData);
  request.once('end', done);
  request.once('close', done);
  request.once('error', done);
  request.resume();
}
