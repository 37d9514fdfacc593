import { isJsonContentType } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { describeJsonInputProblem, findJsonInputProblem } from '../../utils/json-input.util.js';
import { httpErrors } from './json-rpc-error.response.js';

/** A body read and checked, or the answer that refuses it. */
export type JsonBodyOutcome = { ok: true; body: unknown } | { ok: false; answer: Response };

export interface JsonBodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
}

/**
 * Reads the JSON body of a POST from the Node stream, the endpoint's own way on every
 * platform: only `application/json`, at most `maxBodyBytes` (counted while reading; the
 * read stops there, so an oversized body is never held whole), parsed with a message
 * that says what is wrong, then {@link checkJsonBody}.
 */
export async function readJsonBody(
  request: IncomingMessage,
  limits: JsonBodyLimits,
): Promise<JsonBodyOutcome> {
  const refused = refuseMediaType(request);
  if (refused) return refused;
  const text = await readText(request, limits.maxBodyBytes);
  if (text === undefined) return { ok: false, answer: httpErrors.tooLarge(limits.maxBodyBytes) };
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

/** The body as UTF-8 text, or `undefined` once more than `maxBytes` have arrived. */
function readText(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) return Promise.resolve(undefined);
  // Read by someone else already (a body parser that left no `body`): nothing more comes.
  if (request.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) {
        // Stop reading and drop what came: the answer says 413 and closes the connection.
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
