// The lean path's transport against the SDK's own transports, on bare SDK servers: what
// the lean path restates of the SDK (the HTTP status of each answer, `statusOf` in
// lean-path.rules.ts) and what it takes from the SDK's public API (binding a server to
// 2026-07-28 by connecting it to a classified `PerRequestHTTPServerTransport`). When the
// SDK changes either, these tests fail and say which SDK version the rules were written for.
import {
  PerRequestHTTPServerTransport,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SERVER_INFO_META_KEY,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
} from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODERN_REVISION, supportedRevisions } from '../../../lib/protocol/protocol-revisions.js';
import { LeanExchangeTransport } from '../../../lib/transports/http/lean-exchange.transport.js';
import { modernMeta } from '../../support/mcp-post.js';

/** The SDK version installed, and the one the lean path's rules were written against. */
const SDK_VERSION: string = JSON.parse(
  readFileSync(
    new URL('../../../node_modules/@modelcontextprotocol/server/package.json', import.meta.url),
    'utf8',
  ),
).version;
const WRITTEN_FOR = '2.4.0';
const sdkChanged = (what: string) =>
  `${what}: the lean path (lib/transports/http/lean-path.rules.ts, lean-exchange.transport.ts) ` +
  `restates @modelcontextprotocol/server ${WRITTEN_FOR}, and ${SDK_VERSION} is installed: ` +
  'check what the SDK changed and bring the rule in line';

const MODERN: MessageClassification = { era: 'modern', revision: MODERN_REVISION };

/** Never settles: a call in flight. */
const pending = new Promise<never>(() => undefined);

/** A bare SDK server of an era, with a tool whose call fails with `arguments.code`. */
function sdkServer(supported: string[]): Server {
  const server = new Server(
    { name: 'contract', version: '1.0.0' },
    { capabilities: { tools: {} }, supportedProtocolVersions: supported },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'fail', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler('tools/call', (request) => {
    if (request.params.name === 'hang') return pending;
    const code = Number(request.params.arguments?.code);
    if (code) throw new ProtocolError(code, `failed with ${code}`);
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return server;
}

const modernServer = () => sdkServer(supportedRevisions('modern'));
const legacyServer = () => sdkServer(supportedRevisions('legacy'));

function modernCall(method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  return { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } };
}

function legacyCall(method: string, params: Record<string, unknown> = {}): JSONRPCRequest {
  return { jsonrpc: '2.0', id: 1, method, params };
}

interface Answer {
  status: number;
  message: unknown;
}

/** What the SDK's entry does with a modern request: its per-request transport. */
async function sdkModern(server: Server, message: JSONRPCRequest): Promise<Answer> {
  const transport = new PerRequestHTTPServerTransport({ classification: MODERN });
  await server.connect(transport);
  const response = await transport.handleMessage(message);
  return { status: response.status, message: await response.json() };
}

/** What the SDK's entry does with a stateless 2025 request, answered as JSON. */
async function sdkLegacy(server: Server, message: JSONRPCRequest): Promise<Answer> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  const response = await transport.handleRequest(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(message),
    }),
  );
  return { status: response.status, message: await response.json() };
}

async function lean(
  server: Server,
  message: JSONRPCRequest,
  classification?: MessageClassification,
): Promise<Answer> {
  const era = classification ? 'modern' : 'legacy';
  const transport = new LeanExchangeTransport(era, message, classification);
  await server.connect(transport);
  const answer = await transport.dispatch({ ...(classification && { classification }) });
  if ('stream' in answer) throw new Error('Expected one JSON answer, got a stream');
  return { status: answer.status, message: answer.message };
}

const MODERN_CASES: ReadonlyArray<{
  readonly name: string;
  readonly server: () => Server;
  readonly message: JSONRPCRequest;
  readonly status: number;
}> = [
  { name: 'a list', server: modernServer, message: modernCall('tools/list'), status: 200 },
  {
    name: 'server/discover (registered by the modern list)',
    server: modernServer,
    message: modernCall('server/discover'),
    status: 200,
  },
  {
    name: 'a call',
    server: modernServer,
    message: modernCall('tools/call', { name: 'ok' }),
    status: 200,
  },
  {
    name: 'a 2025-only method (the era gate, while delivering)',
    server: modernServer,
    message: modernCall('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    }),
    status: 404,
  },
  {
    name: 'a method with no handler (while delivering)',
    server: modernServer,
    message: modernCall('prompts/list'),
    status: 404,
  },
  {
    name: 'a request without its envelope (while delivering)',
    server: modernServer,
    message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    status: 200,
  },
  {
    name: 'a server that does not list 2026-07-28 (left unbound: the era check)',
    server: legacyServer,
    message: modernCall('tools/list'),
    status: 400,
  },
  ...[
    [ProtocolErrorCode.MissingRequiredClientCapability, 400],
    [ProtocolErrorCode.MethodNotFound, 200],
    [ProtocolErrorCode.InvalidRequest, 200],
    [ProtocolErrorCode.UnsupportedProtocolVersion, 200],
    [-32020, 200],
    [ProtocolErrorCode.InvalidParams, 200],
    [ProtocolErrorCode.InternalError, 200],
  ].map(([code, status]) => ({
    name: `a handler error ${code}`,
    server: modernServer,
    message: modernCall('tools/call', { name: 'fail', arguments: { code } }),
    status: status!,
  })),
];

describe('LeanExchangeTransport, as the SDK would answer (2026-07-28)', () => {
  it.each(MODERN_CASES)('$name: status $status', async ({ server, message, status }) => {
    const fromSdk = await sdkModern(server(), message);
    const fromLean = await lean(server(), message, MODERN);
    expect(fromLean, sdkChanged(`the lean answer to ${message.method}`)).toEqual(fromSdk);
    expect(fromLean.status, sdkChanged('the HTTP status of the answer')).toBe(status);
  });

  it('binds a server that lists 2026-07-28 to it, through the public per-request transport', async () => {
    const { message } = await lean(modernServer(), modernCall('tools/list'), MODERN);
    // A 2026-07-28 result names the server (SEP-2575): only a server bound to the revision does.
    expect(
      (message as { result: { _meta?: Record<string, unknown> } }).result._meta?.[
        SERVER_INFO_META_KEY
      ],
      sdkChanged('Server.connect binding a PerRequestHTTPServerTransport to its revision'),
    ).toEqual({ name: 'contract', version: '1.0.0' });
  });
});

describe('LeanExchangeTransport, as the SDK would answer (2025, stateless)', () => {
  const cases: ReadonlyArray<readonly [string, () => Server, JSONRPCRequest]> = [
    ['a list', legacyServer, legacyCall('tools/list')],
    ['a call', legacyServer, legacyCall('tools/call', { name: 'ok' })],
    [
      'a handler error',
      legacyServer,
      legacyCall('tools/call', { name: 'fail', arguments: { code: -32021 } }),
    ],
    ['a method with no handler', legacyServer, legacyCall('prompts/list')],
    // A server made for 2026-07-28 stays unbound on a 2025 route (no revision is classified).
    [
      'server/discover on a server made for 2026-07-28',
      modernServer,
      legacyCall('server/discover'),
    ],
  ];

  it.each(cases)('%s', async (_name, server, message) => {
    const fromSdk = await sdkLegacy(server(), message);
    const fromLean = await lean(server(), message);
    expect(fromLean, sdkChanged(`the lean answer to ${message.method}`)).toEqual(fromSdk);
    expect(fromLean.status).toBe(200);
  });
});

describe('LeanExchangeTransport, one exchange', () => {
  it('closes the server once its answer is out, as the SDK per-request transport does', async () => {
    const server = modernServer();
    let closed = false;
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Protocol has no addEventListener
    server.onclose = () => (closed = true);
    const transport = new LeanExchangeTransport('modern', modernCall('tools/list'), MODERN);
    await server.connect(transport);
    await transport.dispatch({ classification: MODERN });
    expect(closed).toBe(false);
    await Promise.resolve();
    expect(closed).toBe(true);
    expect(server.transport).toBeUndefined();
  });

  it('fails the exchange when it closes before an answer (the lean path answers 499)', async () => {
    const server = modernServer();
    const transport = new LeanExchangeTransport(
      'modern',
      modernCall('tools/call', { name: 'hang' }),
      MODERN,
    );
    await server.connect(transport);
    const answer = transport.dispatch({ classification: MODERN });
    await transport.close();
    const error = await answer.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
  });

  it('refuses a server-to-client request, drops unrelated messages, serves one request', async () => {
    const transport = new LeanExchangeTransport('legacy', legacyCall('tools/list'));
    await legacyServer().connect(transport);
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 9, method: 'roots/list' };
    await expect(transport.send(request)).rejects.toThrow(/cannot carry a server request/);
    // Not of this request (no relatedRequestId): the SDK's transport drops it too.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    const answer = await transport.dispatch({});
    expect(answer).toMatchObject({ status: 200, message: { id: 1 } });
    expect(() => transport.dispatch({})).toThrow(/exactly one request/);
    await expect(transport.handleMessage()).rejects.toThrow(/dispatch\(\)/);
  });

  it('streams the notifications of its request before the response, as the SDK does', async () => {
    const transport = new LeanExchangeTransport('legacy', legacyCall('tools/list'));
    await legacyServer().connect(transport);
    const notification: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'listing' },
    };
    await transport.send(notification, { relatedRequestId: 1 });
    const answer = await transport.dispatch({});
    if (!('stream' in answer)) throw new Error('Expected a stream');
    expect(answer.status).toBe(200);
    const text = await new Response(answer.stream).text();
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames[0]).toBe(`event: message\ndata: ${JSON.stringify(notification)}`);
    expect(frames).toHaveLength(2);
    expect(JSON.parse(frames[1]!.replace('event: message\ndata: ', ''))).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: expect.any(Array) },
    });
  });

  it('cancels the call when the client cancels the stream', async () => {
    const server = legacyServer();
    let closed = false;
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Protocol has no addEventListener
    server.onclose = () => (closed = true);
    const transport = new LeanExchangeTransport(
      'legacy',
      legacyCall('tools/call', { name: 'hang' }),
    );
    await server.connect(transport);
    const answering = transport.dispatch({});
    await transport.send(
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } },
      { relatedRequestId: 1 },
    );
    const answer = await answering;
    if (!('stream' in answer)) throw new Error('Expected a stream');
    await answer.stream.cancel();
    expect(closed).toBe(true);
  });
});
