// A compressed request body (Content-Encoding) on both platforms (issue 31): gzip, deflate and
// br are inflated with Node's zlib and bounded as a plain body is, after inflation
// (http.maxBodyBytes) and by their ratio; another coding is refused with 415. docs/http.md
// says why inflate rather than refuse.
import { Module } from '@nestjs/common';
import { McpModule } from 'nestjs-mcp';
import { request as httpRequest } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureTokenGuard } from '../fixtures/fixture.guards.js';
import { FixtureScopedTools, FixtureToolsService } from '../fixtures/fixture.tools.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../support/mcp-post.js';

const MAX_BODY_BYTES = 64 * 1024;

@Module({
  imports: [
    McpModule.forRoot({
      name: 'fixture',
      version: '1.2.3',
      http: { guards: [FixtureTokenGuard], maxBodyBytes: MAX_BODY_BYTES },
    }),
  ],
  providers: [FixtureToolsService, FixtureScopedTools],
})
class CompressedBodyAppModule {}

/** A 2026-07-28 call of `echo` with this message, as JSON text. */
const echo = (message: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message }, _meta: modernMeta('compressed') },
  });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  message: Record<string, any>;
}

/** One POST with the given body bytes and headers, over a plain Node request. */
function post(url: URL, body: Buffer, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          authorization: 'Bearer reader',
          'mcp-protocol-version': MODERN_VERSION,
          'mcp-method': 'tools/call',
          'mcp-name': 'echo',
          'content-length': String(body.byteLength),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            message: JSON.parse(data!),
          });
        });
      },
    );
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    req.end(body);
  });
}

describe.each(ADAPTERS)('a compressed request body on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(CompressedBodyAppModule, { adapter });
  });
  afterAll(() => running?.close());

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('inflates a %s body and serves the call', async (coding, compress) => {
    const { status, message } = await post(
      running.url,
      compress(Buffer.from(echo(`sent as ${coding}`))),
      { 'content-encoding': coding },
    );
    expect(status).toBe(200);
    expect(message.result.structuredContent).toMatchObject({ message: `sent as ${coding}` });
  });

  it('refuses a coding it cannot inflate with 415 and Accept-Encoding', async () => {
    const { status, headers, message } = await post(running.url, Buffer.from(echo('x')), {
      'content-encoding': 'zstd',
    });
    expect(status).toBe(415);
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'Unsupported Media Type: the MCP endpoint reads bodies with Content-Encoding gzip, deflate, br (or none), not zstd',
      },
    });
  });

  it('bounds the body by http.maxBodyBytes after inflation: 413', async () => {
    const compressed = gzipSync(echo('x'.repeat(MAX_BODY_BYTES)));
    expect(compressed.byteLength).toBeLessThan(MAX_BODY_BYTES / 10);
    const { status, message } = await post(running.url, compressed, { 'content-encoding': 'gzip' });
    expect(status).toBe(413);
    expect(message.error.message).toContain(`must not exceed ${MAX_BODY_BYTES} bytes`);
  });

  it('answers a body its coding cannot inflate with a parse error', async () => {
    const { status, message } = await post(running.url, Buffer.from(echo('plain')), {
      'content-encoding': 'gzip',
    });
    expect(status).toBe(400);
    expect(message.error).toEqual({
      code: -32700,
      message:
        'Parse error: the request body is not valid JSON: its gzip data cannot be inflated (incorrect header check)',
    });
  });

  it('refuses another media type first, compressed or not', async () => {
    const { status, message } = await post(running.url, gzipSync('hello'), {
      'content-type': 'text/plain',
      'content-encoding': 'gzip',
    });
    expect(status).toBe(415);
    expect(message.error.message).toMatch(/accepts only Content-Type application\/json/);
  });
});

describe.each(ADAPTERS)('a decompression bomb on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    // The default limit (4 MB): the ratio refuses the bomb before it is reached.
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'fixture',
          version: '1.2.3',
          http: { guards: [FixtureTokenGuard] },
        }),
      ],
      providers: [FixtureToolsService, FixtureScopedTools],
    })
    class BombAppModule {}
    running = await startApp(BombAppModule, { adapter });
  });
  afterAll(() => running?.close());

  it('refuses a body that inflates more than 200 times: 413', async () => {
    const bomb = gzipSync(echo('A'.repeat(3 * 1024 * 1024)), { level: 9 });
    const { status, message } = await post(running.url, bomb, { 'content-encoding': 'gzip' });
    expect(status).toBe(413);
    expect(message.error.message).toMatch(
      /^Payload Too Large: the body inflates to more than 200 times its \d+ compressed bytes$/,
    );
  });
});
