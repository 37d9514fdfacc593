import { PassThrough, type Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  contentCodingOf,
  inflate,
  InflationError,
} from '../../../lib/transports/http/content-encoding.inflater.js';

/** Everything a stream gives, or the error it ends with. */
function drain(stream: Readable): Promise<Buffer | Error> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', resolve);
  });
}

describe('contentCodingOf', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    [' Identity ', undefined],
    ['gzip', 'gzip'],
    ['X-GZIP', 'x-gzip'],
    ['deflate', 'deflate'],
    ['br', 'br'],
    ['zstd', false],
    ['gzip, br', false],
    ['toString', false],
  ])('reads %j as %j', (header, coding) => {
    expect(contentCodingOf(header === undefined ? {} : { 'content-encoding': header })).toBe(
      coding,
    );
  });
});

describe('inflate', () => {
  it('gives the inflated bytes, counting those received as Fastify reads them', async () => {
    const text = JSON.stringify({ rows: Array.from({ length: 100 }, (_, n) => n) });
    const compressed = gzipSync(text);
    const body = new PassThrough();
    const inflated = inflate(body, 'gzip', 1024);
    body.end(compressed);
    expect(String(await drain(inflated))).toBe(text);
    expect(inflated.receivedEncodedLength).toBe(compressed.byteLength);
  });

  it('fails past maxBodyBytes received, and lets go of the body', async () => {
    const body = new PassThrough();
    const inflated = inflate(body, 'gzip', 16);
    body.write(Buffer.alloc(32));
    const error = await drain(inflated);
    expect(error).toBeInstanceOf(InflationError);
    expect(error).toMatchObject({ reason: 'too-large', statusCode: 413 });
    // The rest of the body is the caller's to drop (discardRestOfBody), not piped on.
    expect(body.listenerCount('data')).toBe(0);
    expect(body.destroyed).toBe(false);
  });

  it('fails when the body fails (the client went away)', async () => {
    const body = new PassThrough();
    const inflated = inflate(body, 'gzip', 1024);
    body.destroy(new Error('aborted'));
    expect(await drain(inflated)).toMatchObject({ reason: 'corrupt' });
  });
});
