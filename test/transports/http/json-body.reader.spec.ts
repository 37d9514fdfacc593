import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  checkJsonBody,
  checkParsedJsonBody,
  discardRestOfBody,
  readJsonBody,
  type JsonBodyOutcome,
} from '../../../lib/transports/http/json-body.reader.js';

const LIMITS = { maxBodyBytes: 64, maxJsonDepth: 3 };
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * A request stream with these headers, which sends the chunks and ends unless told not to.
 * It never destroys itself, so `destroyed` tells whether the reader closed the connection.
 */
function requestOf(
  headers: Record<string, string>,
  chunks: (string | Buffer)[] = [],
  { end = true } = {},
): IncomingMessage & PassThrough {
  const stream = Object.assign(new PassThrough({ autoDestroy: false }), { headers });
  for (const chunk of chunks) stream.write(chunk);
  if (end) stream.end();
  return stream as unknown as IncomingMessage & PassThrough;
}

/** The HTTP status and JSON-RPC error of a refused body. */
async function refusalOf(outcome: JsonBodyOutcome) {
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.body)}`);
  const { status } = outcome.answer;
  const message = (await outcome.answer.json()) as { id: unknown; error: unknown };
  return { status, id: message.id, error: message.error };
}

describe('readJsonBody', () => {
  it('reads a body that arrives in pieces, a character split between two of them', async () => {
    const text = JSON.stringify({ jsonrpc: '2.0', method: 'ping', params: { q: 'Grüße' } });
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from('ü')) + 1;
    const request = requestOf(JSON_TYPE, [bytes.subarray(0, split), bytes.subarray(split)]);
    expect(await readJsonBody(request, LIMITS)).toEqual({ ok: true, body: JSON.parse(text) });
  });

  it('accepts application/json with parameters', async () => {
    const request = requestOf({ 'content-type': 'application/json; charset=utf-8' }, ['[1]']);
    expect(await readJsonBody(request, LIMITS)).toEqual({ ok: true, body: [1] });
  });

  it('refuses another media type, or none, with 415', async () => {
    expect(
      await refusalOf(await readJsonBody(requestOf({ 'content-type': 'text/plain' }), LIMITS)),
    ).toEqual({
      status: 415,
      id: null,
      error: {
        code: -32000,
        message:
          'Unsupported Media Type: the MCP endpoint accepts only Content-Type application/json, not text/plain',
      },
    });
    const none = await refusalOf(await readJsonBody(requestOf({}), LIMITS));
    expect(none.error).toMatchObject({ message: expect.stringMatching(/\(none was sent\)$/) });
  });

  it('refuses a declared Content-Length over the limit with 413, without waiting for the body', async () => {
    const request = requestOf({ ...JSON_TYPE, 'content-length': '65' }, [], { end: false });
    expect(await refusalOf(await readJsonBody(request, LIMITS))).toEqual({
      status: 413,
      id: null,
      error: {
        code: -32000,
        message:
          'Payload Too Large: the request body must not exceed 64 bytes (the http.maxBodyBytes option of McpModule)',
      },
    });
    request.destroy();
  });

  it('stops reading a body without a length once it passes the limit', async () => {
    const request = requestOf(JSON_TYPE, ['x'.repeat(40), 'x'.repeat(40)], { end: false });
    const outcome = await readJsonBody(request, LIMITS);
    expect((await refusalOf(outcome)).status).toBe(413);
    expect(request.readableEnded).toBe(false);
    request.destroy();
  });

  it('takes a body of exactly the limit', async () => {
    const body = `"${'x'.repeat(62)}"`;
    expect(await readJsonBody(requestOf(JSON_TYPE, [body]), LIMITS)).toEqual({
      ok: true,
      body: 'x'.repeat(62),
    });
  });

  it('answers a parse error saying what is wrong, an empty body included', async () => {
    expect(await refusalOf(await readJsonBody(requestOf(JSON_TYPE, []), LIMITS))).toEqual({
      status: 400,
      id: null,
      error: {
        code: -32700,
        message: 'Parse error: the request body is not valid JSON: the body is empty',
      },
    });
    const broken = await refusalOf(await readJsonBody(requestOf(JSON_TYPE, ['{"a":']), LIMITS));
    expect(broken.status).toBe(400);
    expect(broken.error).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/^Parse error: the request body is not valid JSON: \S/),
    });
  });

  it('reads a body another reader has consumed already as empty', async () => {
    const request = requestOf(JSON_TYPE, ['{}']);
    request.resume();
    await new Promise((resolve) => request.once('end', resolve));
    expect((await refusalOf(await readJsonBody(request, LIMITS))).error).toMatchObject({
      message: expect.stringContaining('the body is empty'),
    });
  });

  it('rejects with the error of the stream', async () => {
    const request = requestOf(JSON_TYPE, ['{'], { end: false });
    const reading = readJsonBody(request, LIMITS);
    request.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toThrow('socket hang up');
  });

  it('refuses a body that nests too deep or carries a pollution key, with a pointer', async () => {
    const deep = await refusalOf(
      await readJsonBody(requestOf(JSON_TYPE, ['{"a":{"b":{"c":{}}}}']), LIMITS),
    );
    expect(deep).toEqual({
      status: 400,
      id: null,
      error: {
        code: -32600,
        message:
          'Invalid Request: The JSON body nests objects or arrays deeper than 3 levels (at /a/b/c); send flatter input.',
      },
    });
    const polluting = await refusalOf(
      await readJsonBody(requestOf(JSON_TYPE, ['{"params":{"__proto__":{"x":1}}}']), LIMITS),
    );
    expect(polluting.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('contains the key "__proto__" (at /params/__proto__)'),
    });
  });
});

describe('readJsonBody: a compressed body (Content-Encoding)', () => {
  const message = { jsonrpc: '2.0', method: 'ping', params: { q: 'Grüße' } };
  const text = JSON.stringify(message);

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
  ])('inflates a %s body', async (coding, compress) => {
    const compressed = compress(Buffer.from(text));
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': coding }, [
      compressed.subarray(0, 5),
      compressed.subarray(5),
    ]);
    // gzip adds some 20 bytes to so short a body.
    const limits = { maxBodyBytes: 1024, maxJsonDepth: 3 };
    expect(await readJsonBody(request, limits)).toEqual({ ok: true, body: message });
  });

  it('reads identity as no coding', async () => {
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'identity' }, ['[1]']);
    expect(await readJsonBody(request, LIMITS)).toEqual({ ok: true, body: [1] });
  });

  it('refuses a coding it cannot inflate with 415, naming those it can, without reading it', async () => {
    for (const coding of ['zstd', 'gzip, gzip', 'compress']) {
      const request = requestOf({ ...JSON_TYPE, 'content-encoding': coding }, ['[1]'], {
        end: false,
      });
      const outcome = await readJsonBody(request, LIMITS);
      expect(await refusalOf(outcome)).toEqual({
        status: 415,
        id: null,
        error: {
          code: -32000,
          message: `Unsupported Media Type: the MCP endpoint reads bodies with Content-Encoding gzip, deflate, br (or none), not ${coding}`,
        },
      });
      expect(!outcome.ok && outcome.answer.headers.get('accept-encoding')).toBe(
        'gzip, deflate, br',
      );
      expect(request.readableFlowing).not.toBe(true);
      request.destroy();
    }
  });

  it('bounds the body after inflation by maxBodyBytes: 413', async () => {
    // 65 bytes of JSON in about 30 compressed ones.
    const compressed = gzipSync(`"${'x'.repeat(63)}"`);
    expect(compressed.byteLength).toBeLessThan(LIMITS.maxBodyBytes);
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [compressed]);
    const refusal = await refusalOf(await readJsonBody(request, LIMITS));
    expect(refusal).toMatchObject({ status: 413, error: { code: -32000 } });
    expect(refusal.error).toMatchObject({ message: expect.stringContaining('64 bytes') });
  });

  it('takes an inflated body of exactly the limit', async () => {
    const compressed = gzipSync(`"${'x'.repeat(62)}"`);
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [compressed]);
    expect(await readJsonBody(request, LIMITS)).toEqual({ ok: true, body: 'x'.repeat(62) });
  });

  it('refuses a decompression bomb by its ratio before maxBodyBytes: 413', async () => {
    const limits = { maxBodyBytes: 64 * 1024 * 1024, maxJsonDepth: 3 };
    // 8 MB of JSON in some 8 KB: a ratio near 1000.
    const bomb = gzipSync(`"${'A'.repeat(8 * 1024 * 1024)}"`, { level: 9 });
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [bomb]);
    const refusal = await refusalOf(await readJsonBody(request, limits));
    expect(refusal).toMatchObject({ status: 413, error: { code: -32000 } });
    expect(refusal.error).toMatchObject({
      message: expect.stringMatching(
        /^Payload Too Large: the body inflates to more than 200 times its \d+ compressed bytes$/,
      ),
    });
  });

  it('takes a large body that compresses well but not suspiciously', async () => {
    const limits = { maxBodyBytes: 8 * 1024 * 1024, maxJsonDepth: 3 };
    const rows = Array.from({ length: 40_000 }, (_, index) => `row ${index} ${index * 7919}`);
    const compressed = gzipSync(JSON.stringify(rows));
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [compressed]);
    const outcome = await readJsonBody(request, limits);
    expect(outcome.ok && (outcome.body as string[]).length).toBe(40_000);
  });

  it('answers a body that is not what its coding says with a parse error', async () => {
    const request = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [text]);
    expect(await refusalOf(await readJsonBody(request, LIMITS))).toEqual({
      status: 400,
      id: null,
      error: {
        code: -32700,
        message:
          'Parse error: the request body is not valid JSON: its gzip data cannot be inflated (incorrect header check)',
      },
    });
    const truncated = gzipSync(text).subarray(0, 20);
    const cut = requestOf({ ...JSON_TYPE, 'content-encoding': 'gzip' }, [truncated]);
    expect((await refusalOf(await readJsonBody(cut, LIMITS))).error).toMatchObject({
      code: -32700,
      message: expect.stringContaining('its gzip data cannot be inflated (unexpected end of file)'),
    });
  });
});

describe('checkParsedJsonBody and checkJsonBody', () => {
  it('check the media type of a body a platform parsed, then the body', async () => {
    const parsed = { jsonrpc: '2.0' };
    expect(checkParsedJsonBody(requestOf(JSON_TYPE), parsed, 3)).toEqual({
      ok: true,
      body: parsed,
    });
    expect((await refusalOf(checkParsedJsonBody(requestOf({}), parsed, 3))).status).toBe(415);
    expect((await refusalOf(checkParsedJsonBody(requestOf(JSON_TYPE), [[[[]]]], 3))).status).toBe(
      400,
    );
  });

  it('pass a body within the depth, constructor keys refused', async () => {
    expect(checkJsonBody([[1]], 2)).toEqual({ ok: true, body: [[1]] });
    expect((await refusalOf(checkJsonBody({ constructor: {} }, 2))).error).toMatchObject({
      message: expect.stringContaining('"constructor" (at /constructor)'),
    });
  });
});

describe('discardRestOfBody', () => {
  it('reads and drops the rest, leaving a connection whose body ends open', async () => {
    const request = requestOf(JSON_TYPE, [], { end: false });
    discardRestOfBody(request, { maxBytes: 100, maxMs: 1_000 });
    request.write('x'.repeat(50));
    request.end();
    await new Promise((resolve) => request.once('end', resolve));
    expect(request.destroyed).toBe(false);
    expect(request.listenerCount('data')).toBe(0);
  });

  it('closes the connection of a client that goes on sending past maxBytes', async () => {
    const request = requestOf(JSON_TYPE, [], { end: false });
    discardRestOfBody(request, { maxBytes: 100, maxMs: 1_000 });
    request.write('x'.repeat(60));
    request.write('x'.repeat(60));
    await sleep(10);
    expect(request.destroyed).toBe(true);
  });

  it('closes the connection of a client that goes on sending past maxMs', async () => {
    const request = requestOf(JSON_TYPE, ['x'], { end: false });
    discardRestOfBody(request, { maxBytes: 100, maxMs: 20 });
    await sleep(10);
    expect(request.destroyed).toBe(false);
    await sleep(50);
    expect(request.destroyed).toBe(true);
  });

  it('leaves a request whose body has ended as it is', async () => {
    const request = requestOf(JSON_TYPE, []);
    request.resume();
    await new Promise((resolve) => request.once('end', resolve));
    discardRestOfBody(request, { maxBytes: 1, maxMs: 1 });
    await sleep(10);
    expect(request.destroyed).toBe(false);
  });
});
