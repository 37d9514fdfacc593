// `http.bodyTimeoutMs` where the endpoint reads a body itself (a platform other than
// Express and Fastify, or a path the Express middleware did not recognise): the e2e spec
// (slow-clients.e2e-spec.ts) drives the Express middleware and Fastify's parser.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { readJsonBody } from '../../../lib/transports/http/json-body.reader.js';

const LIMITS = { maxBodyBytes: 1024, maxJsonDepth: 8, bodyTimeoutMs: 50 };

/** A request whose body starts to come and never ends. */
function unfinished(headers: Record<string, string>, start: Buffer | string) {
  const stream = Object.assign(new PassThrough({ autoDestroy: false }), { headers });
  stream.write(start);
  return stream as unknown as IncomingMessage & PassThrough;
}

describe('readJsonBody within http.bodyTimeoutMs', () => {
  it.each([
    ['a plain body', {}, Buffer.from('{"jsonrpc":"2.0",')],
    ['a gzip body', { 'content-encoding': 'gzip' }, gzipSync('{"jsonrpc":"2.0"}').subarray(0, 8)],
  ])(
    'refuses %s that is not in by then with 408 and Connection: close',
    async (_, coding, start) => {
      const request = unfinished({ 'content-type': 'application/json', ...coding }, start);
      const outcome = await readJsonBody(request, LIMITS);
      if (outcome.ok) throw new Error('expected a refusal');
      expect(outcome.answer.status).toBe(408);
      expect(outcome.answer.headers.get('connection')).toBe('close');
      expect(await outcome.answer.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message:
            'Request Timeout: the request body did not arrive within 50 ms (the ' +
            'http.bodyTimeoutMs option of McpModule); send the body at once',
        },
      });
      // The rest is not read: the answer closes the connection.
      expect(request.isPaused()).toBe(true);
    },
  );

  it('reads a body that comes in time, and leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const request = unfinished({ 'content-type': 'application/json' }, '{"jsonrpc":');
      const read = readJsonBody(request, LIMITS);
      expect(vi.getTimerCount()).toBe(1);
      request.end('"2.0"}');
      expect(await read).toEqual({ ok: true, body: { jsonrpc: '2.0' } });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
