import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The content codings a request body may have (RFC 9110, section 8.4.1), each inflated with
 * Node's zlib: `gzip` (and its alias `x-gzip`), `deflate` (the zlib format) and `br`.
 */
const DECODERS = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
} as const;

export type ContentCoding = keyof typeof DECODERS;

/** What a 415 for an unknown coding names as accepted (RFC 9110, section 12.5.3). */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * At most this many bytes of inflated body per byte received: Apache httpd's default
 * (`DeflateInflateRatioLimit`). JSON compresses 5 to 20 times; a body far above that is a
 * decompression bomb, refused before it reaches `maxBodyBytes`.
 */
export const MAX_INFLATION_RATIO = 200;

/** The ratio counts past this much inflated body: a small one compresses as it will. */
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;

/**
 * The coding of a request's body: `undefined` for none (`identity`), else the coding, or
 * `false` for what the endpoint cannot inflate (another coding, or several stacked).
 */
export function contentCodingOf(headers: IncomingHttpHeaders): ContentCoding | false | undefined {
  const value = headers['content-encoding']?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'identity') return undefined;
  return Object.hasOwn(DECODERS, value) ? (value as ContentCoding) : false;
}

/** Why an inflated body was refused; `reason` picks the answer. */
export class InflationError extends Error {
  /** Fastify reads this when the error ends the body: the answer is ours (fastify-route.hook.ts). */
  readonly statusCode: number;

  constructor(
    readonly reason: 'too-large' | 'ratio' | 'corrupt',
    message: string,
  ) {
    super(message);
    this.statusCode = reason === 'corrupt' ? 400 : 413;
  }
}

/** A stream that counts what goes through it, and fails once the count passes `limit`. */
function byteCounter(
  limit: number,
  check?: (bytes: number) => InflationError | undefined,
): { readonly stream: Transform; readonly bytes: () => number } {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      bytes += chunk.byteLength;
      if (bytes > limit) {
        callback(new InflationError('too-large', `the body is larger than ${limit} bytes`));
        return;
      }
      callback(check?.(bytes) ?? null, chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

/** A readable body, with what Fastify compares to `Content-Length` and `bodyLimit`. */
export type InflatedBody = Readable & { readonly receivedEncodedLength: number };

/**
 * The inflated bytes of `body`, bounded as a plain body is: at most `maxBodyBytes` received,
 * and at most `maxBodyBytes` once inflated; past 1 MiB, at most {@link MAX_INFLATION_RATIO}
 * times what was received. A refusal is an {@link InflationError} on the returned stream; `body` itself is
 * only unpiped (its rest is for the caller to drop, so that the client reads the answer).
 */
export function inflate(
  body: NodeJS.ReadableStream,
  coding: ContentCoding,
  maxBodyBytes: number,
): InflatedBody {
  const received = byteCounter(maxBodyBytes);
  const { stream: inflated } = byteCounter(maxBodyBytes, (bytes) =>
    bytes > RATIO_CHECKED_FROM_BYTES && bytes > MAX_INFLATION_RATIO * received.bytes()
      ? new InflationError(
          'ratio',
          `the body inflates to more than ${MAX_INFLATION_RATIO} times its ` +
            `${received.bytes()} compressed bytes`,
        )
      : undefined,
  );
  Object.defineProperty(inflated, 'receivedEncodedLength', { get: received.bytes });
  const decoder = DECODERS[coding]();
  const stop = (error: Error) => {
    body.unpipe(received.stream);
    received.stream.destroy();
    decoder.destroy();
    // zlib's own errors (a truncated or corrupt body) say what is wrong with the data.
    const refusal =
      error instanceof InflationError
        ? error
        : new InflationError('corrupt', `its ${coding} data cannot be inflated (${error.message})`);
    if (!inflated.destroyed) inflated.destroy(refusal);
  };
  received.stream.once('error', stop);
  decoder.once('error', stop);
  inflated.once('error', stop);
  // Pipes do not carry errors: a body that fails (the client went away) ends the inflation.
  body.once('error', stop);
  inflated.once('close', () => body.removeListener('error', stop));
  body.pipe(received.stream).pipe(decoder).pipe(inflated);
  return inflated as unknown as InflatedBody;
}
