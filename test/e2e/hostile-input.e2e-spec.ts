import { Module } from '@nestjs/common';
import { McpModule } from 'nestjs-mcp';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureTokenGuard } from '../fixtures/fixture.guards.js';
import { FixtureScopedTools, FixtureToolsService } from '../fixtures/fixture.tools.js';
import { captureLogs, referenceIn } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../support/mcp-post.js';

const MAX_BODY_BYTES = 16 * 1024;

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
class HostileInputAppModule {}

const META = modernMeta('hostile');

/** The text of a 2026-07-28 `tools/call` of `echo` whose `arguments` are `argumentsJson`. */
const callWith = (argumentsJson: string) =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":${argumentsJson},"_meta":${JSON.stringify(META)}}}`;

const nestedArguments = (levels: number) =>
  '{"message":"hi","note":' + '{"text":'.repeat(levels) + '"x"' + '}'.repeat(levels) + '}';

interface Row {
  /** What the client does wrong. */
  name: string;
  body: string | string[];
  contentType?: string;
  /** Send the body in chunks without a Content-Length (the limit must count bytes read). */
  chunked?: boolean;
  /** Headers to add or override. */
  headers?: Record<string, string>;
  status: number;
  code: number;
  message: RegExp;
}

const ROWS: Row[] = [
  {
    name: 'a text/plain body',
    body: 'hello',
    contentType: 'text/plain',
    status: 415,
    code: -32000,
    message: /accepts only Content-Type application\/json, not text\/plain/,
  },
  {
    name: 'an XML body',
    body: '<call/>',
    contentType: 'application/xml',
    status: 415,
    code: -32000,
    message: /not application\/xml/,
  },
  {
    name: 'a body without Content-Type',
    body: callWith('{}'),
    contentType: '',
    status: 415,
    code: -32000,
    message: /none was sent/,
  },
  {
    name: 'a body over http.maxBodyBytes, announced by Content-Length',
    body: callWith(JSON.stringify({ message: 'x'.repeat(MAX_BODY_BYTES) })),
    status: 413,
    code: -32000,
    message: new RegExp(`must not exceed ${MAX_BODY_BYTES} bytes`),
  },
  {
    name: 'a chunked body that grows past http.maxBodyBytes',
    body: Array.from({ length: 64 }, () => 'x'.repeat(1024)),
    chunked: true,
    status: 413,
    code: -32000,
    message: /http\.maxBodyBytes/,
  },
  {
    name: 'malformed JSON',
    body: '{"jsonrpc":"2.0","id":1,',
    status: 400,
    code: -32700,
    message: /^Parse error: the request body is not valid JSON: \S/,
  },
  {
    name: 'an empty JSON body',
    body: '',
    status: 400,
    code: -32700,
    message: /the body is empty/,
  },
  ...['__proto__', 'constructor', 'prototype'].map((key) => ({
    name: `a "${key}" key in the arguments`,
    body: callWith(`{"message":"hi","${key}":{"isAdmin":true}}`),
    status: 400,
    code: -32600,
    message: new RegExp(`"${key}" \\(at /params/arguments/${key}\\).*prototype pollution`),
  })),
  {
    name: 'constructor.prototype deep in a nested DTO',
    body: callWith('{"message":"hi","note":{"text":"t","constructor":{"prototype":{"x":1}}}}'),
    status: 400,
    code: -32600,
    message: /"constructor" \(at \/params\/arguments\/note\/constructor\)/,
  },
  {
    name: 'arguments nested 100 levels deep',
    body: callWith(nestedArguments(100)),
    status: 400,
    code: -32600,
    message: /nests objects or arrays deeper than 64 levels \(at \/params\/arguments\/note\//,
  },
  {
    name: 'a body nested 5 000 levels deep',
    body: '['.repeat(5000) + ']'.repeat(5000),
    status: 400,
    code: -32600,
    message: /deeper than 64 levels/,
  },
  {
    name: 'a JSON-RPC batch of 2026-07-28 requests',
    body: `[${callWith('{"message":"a"}')},${callWith('{"message":"b"}')}]`,
    status: 400,
    code: -32600,
    message: /batches are not supported in protocol revision 2026-07-28; send one message per POST/,
  },
  {
    name: 'a JSON-RPC batch of 2025-11-25 requests',
    body: '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
    headers: { 'mcp-protocol-version': '2025-11-25' },
    status: 400,
    code: -32600,
    message: /batches are not supported in protocol revision 2025-11-25/,
  },
  {
    name: 'an empty batch',
    body: '[]',
    status: 400,
    code: -32600,
    message: /batch/,
  },
  {
    name: 'a JSON string instead of a message',
    body: '"tools/list"',
    status: 400,
    code: -32600,
    message: /./,
  },
];

/** One POST over a plain Node request, so headers and chunking are exactly as given. */
function post(
  url: URL,
  row: Pick<Row, 'body' | 'contentType' | 'chunked' | 'headers'>,
  tool = 'echo',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer reader',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
      ...row.headers,
    };
    if (row.contentType !== '') headers['content-type'] = row.contentType ?? 'application/json';
    const chunks = [row.body].flat();
    if (!row.chunked) headers['content-length'] = String(Buffer.byteLength(chunks.join('')));
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    // The server may answer and close before the whole body is sent (413): what it
    // answered is what counts.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe.each(ADAPTERS)('hostile input on the HTTP endpoint, on %s', (adapter) => {
  let running: RunningApp;
  const nodeEnv = process.env.NODE_ENV;
  const logs = captureLogs();

  beforeAll(async () => {
    process.env.NODE_ENV = 'production';
    running = await startApp(HostileInputAppModule, { adapter, logger: logs });
  });

  afterAll(async () => {
    process.env.NODE_ENV = nodeEnv;
    await running?.close();
  });

  it.each(ROWS)('refuses $name', async (row) => {
    const { status, text } = await post(running.url, row);
    expect(status).toBe(row.status);
    const message = JSON.parse(text);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: row.code } });
    expect(message.error.message).toMatch(row.message);
    // Nothing of the server's insides: no stack frame, file path or error class name.
    expect(text).not.toMatch(/\bat \S+ \(|\.ts\b|\.js\b|node_modules|SyntaxError|TypeError/);
  });

  it('keeps serving after the table, with a normal call and its DTO intact', async () => {
    const { status, text } = await post(running.url, {
      body: callWith('{"message":"still here"}'),
    });
    expect(status).toBe(200);
    const { result } = JSON.parse(text);
    expect(result.structuredContent).toMatchObject({ message: 'still here', dtoClass: 'EchoDto' });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('masks an internal error in production: the client gets a reference, not the error', async () => {
    const body = callWith('{}').replace('"name":"echo"', '"name":"explode"');
    const { status, text } = await post(running.url, { body }, 'explode');
    expect(status).toBe(200);
    const { result } = JSON.parse(text);
    expect(result.isError).toBe(true);
    expect(text).not.toMatch(/hunter2|db\.ts|Error:|\bat /);
    // The detail is in the log, under the reference the client was given.
    logs.expectError(
      '[ToolInvokerFactory] Tool "explode" (FixtureToolsService.explode) failed',
      `[ref ${referenceIn(result.content[0].text)}]`,
      'Error: database password=hunter2 at /srv/app/db.ts',
      /at FixtureToolsService\.explode /,
    );
  });
});
