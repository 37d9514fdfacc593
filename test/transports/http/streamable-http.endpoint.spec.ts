// The endpoint object itself, on real Node requests and responses: a `node:http` server on
// 127.0.0.1 hands each exchange to `handle()`, as the Express route does. The runtime is a
// real one (a Nest testing module with McpModule); the e2e specs (shutdown, oversize body,
// lean path) drive the same code through Nest's platforms.
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpContext, McpModule, McpTool, type McpCallContext } from 'nestjs-mcp';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { McpHttpOptions } from '../../../lib/interfaces/mcp-http-options.interface.js';
import { ProtocolRuntime } from '../../../lib/protocol/protocol.runtime.js';
import type { McpProtocolRuntime } from '../../../lib/protocol/protocol-runtime.interface.js';
import { LeanExchangeTransport } from '../../../lib/transports/http/lean-exchange.transport.js';
import { StreamableHttpEndpoint } from '../../../lib/transports/http/streamable-http.endpoint.js';
import { deferred, SlowTools } from '../../fixtures/slow.tools.js';
import { MODERN_VERSION, modernMeta } from '../../support/mcp-post.js';

class EchoDto {
  @IsString()
  word!: string;
}

@Injectable()
class EndpointTools {
  @McpTool({ description: 'Echoes a word.' })
  echo({ word }: EchoDto) {
    return `echo: ${word}`;
  }

  static waiting = deferred();
  static aborted = deferred<string>();

  @McpTool({ description: 'Waits until its caller goes away.' })
  async waitForAbort(@McpContext() ctx: McpCallContext) {
    EndpointTools.waiting.resolve();
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    EndpointTools.aborted.resolve('aborted');
    return 'gone';
  }

  @McpTool({ description: 'Counts to three, reporting progress at each step.' })
  async countToThree(@McpContext() ctx: McpCallContext) {
    for (let step = 1; step <= 3; step++) await ctx.reportProgress(step, 3);
    return 'three';
  }
}

@Module({
  // No route of the module's own: the tests make their endpoints.
  imports: [McpModule.forRoot({ name: 'endpoint', version: '1.0.0', http: false })],
  providers: [EndpointTools, SlowTools],
})
class EndpointAppModule {}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Keeps connections alive, as real clients do: a request sent without it asks for
 * `connection: close` itself, and every answer would say `close` whatever the endpoint did.
 */
let agent: Agent;

/** One POST, once the answer's head has come; `ended` is its body (an SSE stream) in full. */
function send(url: URL, body: string, headers: Record<string, string | number> = {}) {
  return new Promise<Omit<Answer, 'text'> & { ended: Promise<string> }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const ended = new Promise<string>((done) => res.on('close', () => done(text)));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, ended });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One POST, answered in full. */
async function post(url: URL, ...rest: [string, Record<string, string | number>?]) {
  const { ended, ...head } = await send(url, ...rest);
  return { ...head, text: await ended };
}

/** A 2026-07-28 message with the headers and `_meta` envelope a modern client sends. */
function modern(url: URL, method: string, params: Record<string, any> = {}) {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: { ...modernMeta('endpoint-spec'), ...params._meta } },
  };
  return [
    url,
    JSON.stringify(message),
    {
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof params.name === 'string' && { 'mcp-name': params.name }),
    },
  ] as const;
}

const callTool = (url: URL, name: string, args: Record<string, unknown> = {}, meta = {}) =>
  post(...modern(url, 'tools/call', { name, arguments: args, _meta: meta }));

/** A 2026-07-28 `subscriptions/listen` stream, once its head has come. */
const openListenStream = (url: URL) =>
  send(...modern(url, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));

/** Whether a stream is still open a little later (it ends only when the endpoint ends it). */
const stillOpen = (stream: { ended: Promise<string> }) =>
  Promise.race([
    stream.ended.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50)),
  ]);

const json = (answer: Answer) => JSON.parse(answer.text) as Record<string, any>;

/** The JSON-RPC messages of an SSE answer, in the order they were sent. */
const events = (answer: Answer) =>
  answer.text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);

let moduleRef: TestingModule;
let runtime: ProtocolRuntime;

beforeAll(async () => {
  moduleRef = await Test.createTestingModule({ imports: [EndpointAppModule] })
    .setLogger({ log() {}, warn() {}, error() {} })
    .compile();
  await moduleRef.init();
  runtime = moduleRef.get(ProtocolRuntime);
});

afterAll(() => moduleRef?.close());

const opened: Array<{ server: Server; endpoint: StreamableHttpEndpoint }> = [];

beforeEach(() => {
  agent = new Agent({ keepAlive: true });
});

afterEach(async () => {
  agent.destroy();
  SlowTools.release.resolve();
  SlowTools.reset();
  for (const { server, endpoint } of opened.splice(0)) {
    await endpoint.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An endpoint of `server` behind a Node HTTP server on 127.0.0.1, closed after the test. */
async function serve(options: McpHttpOptions = {}, server: McpProtocolRuntime = runtime) {
  const endpoint = new StreamableHttpEndpoint(server, options);
  const http = createServer((request, response) => {
    void endpoint.handle({
      request,
      response,
      platformRequest: request,
      platformResponse: response,
    });
  });
  opened.push({ server: http, endpoint });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { endpoint, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

describe('StreamableHttpEndpoint: JSON-RPC batches', () => {
  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ]);

  it.each(['2025-06-18', '2025-11-25', MODERN_VERSION])(
    'refuses a batch under %s, which has none, with a JSON-RPC error',
    async (version) => {
      const { url } = await serve();
      const answer = await post(url, batch, { 'mcp-protocol-version': version });
      expect(answer.status).toBe(400);
      expect(json(answer)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `Invalid Request: JSON-RPC batches are not supported in protocol revision ${version}; send one message per POST`,
        },
      });
    },
  );

  it('serves a batch under 2025-03-26 (or no version header), one answer per message', async () => {
    const { url } = await serve();
    const versions: Record<string, string>[] = [{ 'mcp-protocol-version': '2025-03-26' }, {}];
    for (const headers of versions) {
      const answer = await post(url, batch, headers);
      expect(answer.status).toBe(200);
      // Each answer lists the four tools: echo, wait_for_abort, count_to_three, wait_for_release.
      expect(events(answer).map((message) => [message.id, message.result.tools.length])).toEqual([
        [1, 4],
        [2, 4],
      ]);
    }
  });
});

describe('StreamableHttpEndpoint: the body checks', () => {
  it('refuses a body that is not application/json with 415, naming the type sent', async () => {
    const { url } = await serve();
    const answer = await post(url, 'tools/list', { 'content-type': 'text/plain' });
    expect(answer.status).toBe(415);
    expect(json(answer).error).toEqual({
      code: -32000,
      message:
        'Unsupported Media Type: the MCP endpoint accepts only Content-Type application/json, not text/plain',
    });
  });

  it('refuses a body over http.maxBodyBytes with 413, and serves the next request', async () => {
    const { url } = await serve({ maxBodyBytes: 1024 });
    const answer = await callTool(url, 'echo', { word: 'x'.repeat(2048) });
    expect(answer.status).toBe(413);
    expect(json(answer).error.message).toBe(
      'Payload Too Large: the request body must not exceed 1024 bytes (the http.maxBodyBytes option of McpModule)',
    );
    const next = await callTool(url, 'echo', { word: 'small' });
    expect(json(next).result.content).toEqual([{ type: 'text', text: 'echo: small' }]);
  });

  it('refuses a body nested deeper than http.maxJsonDepth with 400', async () => {
    const { url } = await serve({ maxJsonDepth: 8 });
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10; level++) deep = { deep };
    const answer = await callTool(url, 'echo', { word: 'hi', deep });
    expect(answer.status).toBe(400);
    expect(json(answer).error).toEqual({
      code: -32600,
      message: expect.stringMatching(
        /^Invalid Request: The JSON body nests objects or arrays deeper than 8 levels \(at \/params\/arguments\/deep/,
      ),
    });
    const shallow = await callTool(url, 'echo', { word: 'hi' });
    expect(json(shallow).result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });

  it('answers a body that is not JSON with a parse error', async () => {
    const { url } = await serve();
    const answer = await post(url, '{"jsonrpc":', { 'mcp-protocol-version': MODERN_VERSION });
    expect(answer.status).toBe(400);
    expect(json(answer).error.code).toBe(-32700);
    expect(json(answer).error.message).toMatch(/^Parse error: the request body is not valid JSON/);
  });
});

describe.each([true, false])('StreamableHttpEndpoint: shutdown (leanPath %s)', (leanPath) => {
  it('refuses new requests with 503 while the call in flight finishes, then resolves', async () => {
    const { url, endpoint } = await serve({ leanPath });
    const inFlight = callTool(url, 'wait_for_release');
    await SlowTools.started.promise;

    let shutDown = false;
    const shutdown = endpoint.shutdown().then(() => (shutDown = true));
    const refused = await callTool(url, 'echo', { word: 'late' });
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatchObject({ connection: 'close', 'retry-after': '1' });
    expect(json(refused).error.message).toMatch(/the MCP server is shutting down/);
    expect(shutDown).toBe(false);

    SlowTools.release.resolve();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    // Answered while shutting down: the connection ends, so the client's next request
    // goes to a server that is not closing.
    expect(answered.headers.connection).toBe('close');
    expect(json(answered).result.content).toEqual([{ type: 'text', text: 'finished' }]);
    await shutdown;
    expect(shutDown).toBe(true);
  });

  it('keeps connections open on answers sent before the shutdown', async () => {
    const { url } = await serve({ leanPath });
    const answer = await callTool(url, 'echo', { word: 'hi' });
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).not.toBe('close');
  });
});

describe('StreamableHttpEndpoint: shutdown and close', () => {
  it('cuts off a call still in flight after http.shutdownTimeoutMs with a JSON-RPC error', async () => {
    const { url, endpoint } = await serve({ shutdownTimeoutMs: 50 });
    const inFlight = callTool(url, 'wait_for_release');
    await SlowTools.started.promise;
    await endpoint.shutdown();
    // Answered at once, not when (or if) the tool returns: the HTTP server can close.
    const answer = await inFlight;
    expect(answer.status).toBe(503);
    expect(answer.headers.connection).toBe('close');
    expect(json(answer).error).toEqual({
      code: -32000,
      message:
        'Service Unavailable: the MCP server shut down before this request finished; it was ' +
        'stopped after 50 ms (the http.shutdownTimeoutMs option of McpModule). Retry it on ' +
        'another instance or later.',
    });
    // What the tool returns afterwards is dropped.
    SlowTools.release.resolve();
  });

  it('ends an open subscriptions/listen stream without waiting for it, on shutdown()', async () => {
    const { url, endpoint } = await serve();
    const stream = await openListenStream(url);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(await stillOpen(stream)).toBe(true);
    // A stream lasts as long as the client wants: the drain (10 s by default) does not count it.
    const started = Date.now();
    await endpoint.shutdown();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(stream.ended).resolves.toBeTypeOf('string');
  });

  it('close() ends open streams, and may be called again, shutdown() too', async () => {
    const { url, endpoint } = await serve();
    const stream = await openListenStream(url);
    expect(await stillOpen(stream)).toBe(true);
    await endpoint.close();
    await stream.ended;
    await expect(endpoint.close()).resolves.toBeUndefined();
    await expect(endpoint.shutdown()).resolves.toBeUndefined();
    expect((await callTool(url, 'echo', { word: 'x' })).status).toBe(503);
  });
});

/** The runtime, with the transport each SDK server it makes is connected to recorded. */
function recordingTransports(real: McpProtocolRuntime) {
  const transports: unknown[] = [];
  const serverFor: McpProtocolRuntime['serverFor'] = (...args) => {
    const product = real.serverFor(...args);
    const connect = product.connect.bind(product);
    product.connect = (transport) => {
      transports.push(transport);
      return connect(transport);
    };
    return product;
  };
  const standIn = new Proxy(real, {
    get: (target, key) => (key === 'serverFor' ? serverFor : Reflect.get(target, key, target)),
  });
  return { standIn, transports };
}

describe('StreamableHttpEndpoint: the lean path and the SDK entry', () => {
  it('serves a plain call on the fast path, with no SDK server, as one JSON body with its length', async () => {
    const { standIn, transports } = recordingTransports(runtime);
    const { url } = await serve({}, standIn);
    const answer = await callTool(url, 'echo', { word: 'lean' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(json(answer).result.content).toEqual([{ type: 'text', text: 'echo: lean' }]);
    expect(transports).toEqual([]);
  });

  it('serves server/discover on the lean path, over its own exchange', async () => {
    const { standIn, transports } = recordingTransports(runtime);
    const { url } = await serve({}, standIn);
    const answer = await post(...modern(url, 'server/discover'));
    expect(answer.status).toBe(200);
    expect(json(answer).result.supportedVersions).toContain('2026-07-28');
    expect(transports).toHaveLength(1);
    expect(transports[0]).toBeInstanceOf(LeanExchangeTransport);
  });

  it('aborts ctx.signal on the fast path when the client goes away mid-call', async () => {
    const { standIn, transports } = recordingTransports(runtime);
    const { url } = await serve({}, standIn);
    const [, body, headers] = modern(url, 'tools/call', { name: 'wait_for_abort', arguments: {} });
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
    });
    req.on('error', () => undefined);
    req.end(body);
    await EndpointTools.waiting.promise;
    req.destroy();
    await expect(EndpointTools.aborted.promise).resolves.toBe('aborted');
    expect(transports).toEqual([]);
  });

  it('sends a call with a progressToken to the SDK entry, which streams the progress', async () => {
    const { standIn, transports } = recordingTransports(runtime);
    const { url } = await serve({}, standIn);
    const answer = await callTool(url, 'count_to_three', {}, { progressToken: 'p1' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const messages = events(answer);
    expect(
      messages
        .filter((message) => message.method === 'notifications/progress')
        .map((message) => message.params),
    ).toEqual([1, 2, 3].map((progress) => ({ progressToken: 'p1', progress, total: 3 })));
    expect(messages.at(-1)?.result.content).toEqual([{ type: 'text', text: 'three' }]);
    expect(transports).toHaveLength(1);
    expect(transports[0]).not.toBeInstanceOf(LeanExchangeTransport);
  });

  it('sends a plain call to the SDK entry with http.leanPath false', async () => {
    const { standIn, transports } = recordingTransports(runtime);
    const { url } = await serve({ leanPath: false }, standIn);
    const answer = await callTool(url, 'echo', { word: 'sdk' });
    expect(json(answer).result.content).toEqual([{ type: 'text', text: 'echo: sdk' }]);
    expect(transports).toHaveLength(1);
    expect(transports[0]).not.toBeInstanceOf(LeanExchangeTransport);
  });
});
