import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_LIMITS } from '../../lib/transports/http/json-body.reader.js';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../support/mcp-post.js';

/** Sequential requests per case: a race that lost one time in three shows up here. */
const RUNS = 30;
const MB = 1024 * 1024;

const HEADERS = {
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${SAMPLE_DEFAULTS.readerToken}`,
  'content-type': 'application/json',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'search_products',
};

/** The JSON text of a `tools/call` of `search_products`, around its padding. */
const CALL_HEAD = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":{},"_meta":${JSON.stringify(modernMeta('oversize'))},"padding":"`;
const CALL_TAIL = '"}}';

/** That call, padded to `bytes` bytes. */
const callOfSize = (bytes: number) =>
  CALL_HEAD + 'x'.repeat(bytes - CALL_HEAD.length - CALL_TAIL.length) + CALL_TAIL;

interface Send {
  url: string;
  headers: Record<string, string>;
  runs: number;
  /**
   * The call padded to `bytes`, in one piece (fetch sends its Content-Length), or `chunked`
   * in 64 KB chunks without a Content-Length (the limit is met while reading).
   */
  body: { bytes: number; chunked?: boolean };
}

interface Outcome {
  status?: number;
  text?: string;
  error?: string;
}

/**
 * The client: Node's fetch (undici) in a process of its own, as a real client is. (In the
 * test's own process, server and client share one event loop, and the client reads the
 * answer before the server can reset the connection: the race this test is about would
 * never show.)
 */
const CLIENT = `
const [send, head, tail] = JSON.parse(process.argv[1]);
const text = head + 'x'.repeat(send.body.bytes - head.length - tail.length) + tail;
const bytes = new TextEncoder().encode(text);
const bodyOf = () => {
  if (!send.body.chunked) return bytes;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(offset, (offset += 64 * 1024)));
    },
  });
};
const outcomes = [];
for (let run = 0; run < send.runs; run++) {
  try {
    const res = await fetch(send.url, {
      method: 'POST', headers: send.headers, body: bodyOf(), duplex: 'half',
    });
    outcomes.push({ status: res.status, text: await res.text() });
  } catch (error) {
    outcomes.push({ error: error.message + ' (' + (error.cause?.code ?? error.cause?.message) + ')' });
  }
}
process.stdout.write(JSON.stringify(outcomes));
`;

async function sendFromAnotherProcess(send: Send): Promise<Outcome[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', CLIENT, JSON.stringify([send, CALL_HEAD, CALL_TAIL])],
    { maxBuffer: 16 * MB },
  );
  return JSON.parse(stdout) as Outcome[];
}

const CASES: Array<{ name: string; body: Send['body'] }> = [
  { name: 'a 12 MB body', body: { bytes: 12 * MB } },
  {
    name: 'a body one byte over http.maxBodyBytes',
    body: { bytes: DEFAULT_MAX_REQUEST_BODY_SIZE + 1 },
  },
  { name: 'a 12 MB chunked body', body: { bytes: 12 * MB, chunked: true } },
];

const TOO_LARGE = {
  status: 413,
  message: {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32000,
      message:
        `Payload Too Large: the request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} ` +
        'bytes (the http.maxBodyBytes option of McpModule)',
    },
  },
};

/** An HTTP/1.1 request of the MCP endpoint as bytes, for a socket of our own. */
const rawRequest = (url: URL, body: string, contentLength = Buffer.byteLength(body)) =>
  `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
  Object.entries(HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `content-length: ${contentLength}\r\n\r\n${body}`;

/** The status lines a socket received, in order. */
const statusesIn = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map(([, s]) => s);

/** What `socket` received, once `enough` says so or the connection is closed. */
function receive(socket: Socket, enough: (text: string) => boolean = () => false) {
  let text = '';
  socket.setEncoding('utf8');
  // The server may reset a connection that goes on sending (EPIPE, ECONNRESET).
  socket.on('error', () => {});
  return new Promise<string>((resolve) => {
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (enough(text)) resolve(text);
    });
    socket.once('close', () => resolve(text));
  });
}

/**
 * The endpoint stops reading a body at `http.maxBodyBytes` and answers while the client is
 * still sending. The client must read that answer (413, with a JSON-RPC error) every time,
 * never a reset connection, on both platforms; and the server goes on serving.
 */
describe.each(ADAPTERS)('an oversize body on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(AppModule, { adapter, logger: false });
  });

  afterAll(() => running?.close());

  it.each(CASES)(
    `is answered 413, readable by Node's fetch ${RUNS} times in a row: $name`,
    async ({ body }) => {
      const outcomes = await sendFromAnotherProcess({
        url: running.url.href,
        headers: HEADERS,
        runs: RUNS,
        body,
      });
      const answers = outcomes.map(({ status, text, error }) =>
        error ? { error } : { status, message: JSON.parse(text!) as unknown },
      );
      expect(answers).toEqual(Array.from({ length: RUNS }, () => TOO_LARGE));
    },
    60_000,
  );

  it('serves the next request on the same connection once the refused body has arrived', async () => {
    const socket = connect(Number(running.url.port), '127.0.0.1');
    const answered = receive(socket, (text) => /"structuredContent"/.test(text));
    socket.write(
      rawRequest(running.url, callOfSize(DEFAULT_MAX_REQUEST_BODY_SIZE + 1)) +
        rawRequest(running.url, callOfSize(2048)),
    );
    const text = await answered;
    socket.destroy();
    expect(statusesIn(text)).toEqual(['413', '200']);
  });

  it(`drops at most ${DISCARD_LIMITS.maxBytes / MB} MB of the rest, then closes the connection`, async () => {
    // A client that announces 1 GB and sends without reading.
    const socket = connect(Number(running.url.port), '127.0.0.1');
    const text = receive(socket);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (!socket.destroyed && sent < 1024 * MB) {
        sent += chunk.byteLength;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.write(rawRequest(running.url, '', 1024 * MB), pump);
    expect(statusesIn(await text)).toEqual(['413']);
    expect(sent).toBeGreaterThan(DISCARD_LIMITS.maxBytes);
    // What the socket buffers on both sides held when the server closed, at most.
    expect(sent).toBeLessThan(DISCARD_LIMITS.maxBytes + 32 * MB);
  });

  it('closes the connection of a client that goes on sending for too long', async () => {
    const { maxMs } = DISCARD_LIMITS;
    DISCARD_LIMITS.maxMs = 300;
    try {
      // 1 KB every 20 ms: far below the byte limit, but it never ends.
      const socket = connect(Number(running.url.port), '127.0.0.1');
      const text = receive(socket);
      socket.write(rawRequest(running.url, '', 1024 * MB));
      const drip = setInterval(() => socket.write(Buffer.alloc(1024, 0x20)), 20);
      const started = Date.now();
      const answer = await text;
      clearInterval(drip);
      expect(statusesIn(answer)).toEqual(['413']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      DISCARD_LIMITS.maxMs = maxMs;
    }
  });

  it('still serves a normal call afterwards', async () => {
    const res = await fetch(running.url, {
      method: 'POST',
      headers: HEADERS,
      body: callOfSize(2048),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: Record<string, any> };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.total).toBeGreaterThan(0);
  });
});
