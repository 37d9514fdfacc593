import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { bootstrapStdio } from 'nestjs-mcp/stdio';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { modernMeta } from '../support/mcp-post.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectLegacyClient,
  connectModernClient,
  type TestClient,
} from '../support/mcp-clients.js';
import { InMemoryOtel, type HistogramPoint } from '../telemetry/in-memory-otel.js';
import { telemetryAppModule, waitingCalls } from '../telemetry/telemetry.fixture.js';

// A client's span, as W3C Trace Context carries it in `params._meta` (SEP-414).
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;

const ERAS = [
  { era: '2025-11-25', label: 'v1 client, 2025-11-25', connect: connectLegacyClient },
  { era: '2026-07-28', label: 'v2 client, 2026-07-28', connect: connectModernClient },
] as const;

/** The MCP server spans this package finished. */
const mcpSpans = (otel: InMemoryOtel) =>
  otel.spans
    .getFinishedSpans()
    .filter(
      (span) => span.instrumentationScope.name === 'nestjs-mcp' && span.kind === SpanKind.SERVER,
    );

/** How many measurements the data points of a histogram hold. */
const countOf = (points: HistogramPoint[]) =>
  points.reduce((total, point) => total + point.value.count, 0);

/** Runs one request and returns its span, failing unless it yielded exactly that one. */
async function spanOf(otel: InMemoryOtel, method: string, run: () => Promise<unknown>) {
  otel.spans.reset();
  await run();
  const spans = mcpSpans(otel);
  expect(spans.map((span) => span.attributes['mcp.method.name'])).toEqual([method]);
  return spans[0]!;
}

describe('OpenTelemetry spans and metrics over HTTP', () => {
  const logs = captureLogs();
  let otel: InMemoryOtel;
  let running: RunningApp;

  beforeAll(async () => {
    otel = InMemoryOtel.install();
    running = await startApp(telemetryAppModule(), { logger: logs });
  });
  afterAll(async () => {
    await running?.close();
    await otel?.uninstall();
  });

  describe.each(ERAS)('$label', ({ era, connect }) => {
    let client: TestClient;
    beforeAll(async () => {
      client = await connect(running.url);
    });
    afterAll(() => client?.close());

    it('names a tools/call span after its tool, with the attributes of the conventions', async () => {
      const span = await spanOf(otel, 'tools/call', () =>
        client.callTool('get_weather', { city: 'Lyon' }),
      );
      expect(span.name).toBe('tools/call get_weather');
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'get_weather',
        'mcp.protocol.version': era,
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'client.address': expect.stringContaining('127.0.0.1'),
        'client.port': expect.any(Number),
      });
      expect(span.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
      // Neither a session (stateless, or 2026-07-28) nor payloads unless opted in.
      for (const absent of [
        'mcp.session.id',
        'error.type',
        'gen_ai.tool.call.arguments',
        'gen_ai.tool.call.result',
      ]) {
        expect(span.attributes).not.toHaveProperty(absent);
      }
    });

    it('makes a span the tool starts a child of the request span', async () => {
      const span = await spanOf(otel, 'tools/call', () =>
        client.callTool('lookup_station', { city: 'Lyon' }),
      );
      const own = otel.spans.getFinishedSpans().filter((s) => s.name === 'station lookup');
      expect(own).toHaveLength(1);
      expect(own[0]!.spanContext().traceId).toBe(span.spanContext().traceId);
      expect(own[0]!.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    });

    it('takes the parent from _meta.traceparent', async () => {
      const span = await spanOf(otel, 'tools/call', () =>
        client.sdk.callTool({
          name: 'get_weather',
          arguments: { city: 'Oslo' },
          _meta: { traceparent: TRACEPARENT },
        }),
      );
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
      expect(span.parentSpanContext?.isRemote).toBe(true);
    });

    it('records an isError result as error.type tool_error', async () => {
      const span = await spanOf(otel, 'tools/call', () => client.callTool('no_forecast', {}));
      expect(span.name).toBe('tools/call no_forecast');
      expect(span.attributes['error.type']).toBe('tool_error');
      expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    });

    it('records an unknown tool as -32602, and keeps its name out of the span name', async () => {
      const span = await spanOf(otel, 'tools/call', () =>
        client.callTool('no_such_tool', {}).catch((error: unknown) => error),
      );
      expect(span.name).toBe('tools/call');
      expect(span.attributes).toMatchObject({
        'gen_ai.tool.name': 'no_such_tool',
        'error.type': '-32602',
        'rpc.response.status_code': '-32602',
      });
      expect(span.status).toEqual({
        code: SpanStatusCode.ERROR,
        message: expect.stringContaining('no_such_tool'),
      });
    });

    it('records an unexpected failure as -32603', async () => {
      const span = await spanOf(otel, 'prompts/get', () =>
        client.sdk.getPrompt({ name: 'broken', arguments: {} }).catch((error: unknown) => error),
      );
      expect(span.name).toBe('prompts/get broken');
      expect(span.attributes).toMatchObject({
        'gen_ai.prompt.name': 'broken',
        'error.type': '-32603',
        'rpc.response.status_code': '-32603',
      });
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      // Logged once, with its reference, by the library.
      logs.expectError('[JsonRpcInvokerFactory] Prompt "broken"', 'the prompt store is down');
    });

    it('gives every other method one span, named as the conventions say', async () => {
      const { sdk } = client;
      const expectations: Array<[string, string, () => Promise<unknown>]> = [
        ['tools/list', 'tools/list', () => sdk.listTools()],
        ['prompts/list', 'prompts/list', () => sdk.listPrompts()],
        [
          'prompts/get',
          'prompts/get summary',
          () => sdk.getPrompt({ name: 'summary', arguments: { topic: 'rain' } }),
        ],
        ['resources/list', 'resources/list', () => sdk.listResources()],
        ['resources/templates/list', 'resources/templates/list', () => sdk.listResourceTemplates()],
        [
          'completion/complete',
          'completion/complete',
          () =>
            sdk.complete({
              ref: { type: 'ref/prompt', name: 'summary' },
              argument: { name: 'topic', value: 'r' },
            }),
        ],
        // 2026-07-28 has no ping.
        ...(era === '2025-11-25'
          ? [['ping', 'ping', () => sdk.ping()] as [string, string, () => Promise<unknown>]]
          : []),
      ];
      for (const [method, name, run] of expectations) {
        const span = await spanOf(otel, method, run);
        expect(span.name).toBe(name);
        expect(span.attributes['mcp.protocol.version']).toBe(era);
      }
      const read = await spanOf(otel, 'resources/read', () =>
        sdk.readResource({ uri: 'weather://cities' }),
      );
      // The URI is an attribute; in the span name only when opted in (resourceUriInSpanName).
      expect(read.name).toBe('resources/read');
      expect(read.attributes['mcp.resource.uri']).toBe('weather://cities');
    });

    it('records the duration of each request, with the attributes that stay few', async () => {
      await client.callTool('get_weather', { city: 'Rome' });
      const points = await otel.histogram('mcp.server.operation.duration');
      const call = points.find(
        (point) =>
          point.attributes['mcp.method.name'] === 'tools/call' &&
          point.attributes['gen_ai.tool.name'] === 'get_weather' &&
          point.attributes['mcp.protocol.version'] === era &&
          point.attributes['error.type'] === undefined,
      );
      expect(call?.value.count).toBeGreaterThanOrEqual(1);
      expect(call?.value.buckets.boundaries).toEqual([
        0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
      ]);
      expect(Object.keys(call!.attributes).toSorted()).toEqual([
        'gen_ai.operation.name',
        'gen_ai.tool.name',
        'mcp.method.name',
        'mcp.protocol.version',
        'network.protocol.name',
        'network.protocol.version',
        'network.transport',
      ]);
      const unknown = points.find(
        (point) =>
          point.attributes['error.type'] === '-32602' &&
          point.attributes['mcp.protocol.version'] === era,
      );
      expect(unknown?.attributes).not.toHaveProperty('gen_ai.tool.name');
    });
  });

  it('names a method no handler serves _OTHER, keeping what the client sent', async () => {
    const span = await spanOf(otel, 'no/such-method', async () => {
      const res = await request(running.app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Content-Type', 'application/json')
        .set('MCP-Protocol-Version', '2025-11-25')
        .send({ jsonrpc: '2.0', id: 7, method: 'no/such-method', params: {} });
      expect(res.text).toContain('-32601');
    });
    expect(span.name).toBe('_OTHER');
    expect(span.attributes).toMatchObject({
      'jsonrpc.request.id': '7',
      'error.type': '-32601',
      'mcp.protocol.version': '2025-11-25',
    });
    const points = await otel.histogram('mcp.server.operation.duration');
    expect(points.some((point) => point.attributes['mcp.method.name'] === 'no/such-method')).toBe(
      false,
    );
    expect(
      points.find((point) => point.attributes['mcp.method.name'] === '_OTHER')?.attributes,
    ).toMatchObject({ 'error.type': '-32601' });
  });

  it('gives the 2025 handshake and logging level their spans (v1 client)', async () => {
    otel.spans.reset();
    const client = await connectLegacyClient(running.url);
    expect(mcpSpans(otel).map((span) => span.name)).toEqual([
      'initialize',
      'notifications/initialized',
    ]);
    const span = await spanOf(otel, 'logging/setLevel', () => client.sdk.setLoggingLevel('info'));
    expect(span.name).toBe('logging/setLevel');
    await spanOf(otel, 'resources/subscribe', () =>
      client.sdk.subscribeResource({ uri: 'weather://cities' }),
    );
    await client.close();
  });

  it('gives the 2026-07-28 discovery and listen stream their spans (v2 client)', async () => {
    otel.spans.reset();
    const client = await connectModernClient(running.url);
    expect(mcpSpans(otel).map((span) => span.name)).toEqual(['server/discover']);
    otel.spans.reset();
    const subscription = await client.sdk.listen({ toolsListChanged: true });
    await subscription.close();
    await vi.waitFor(() =>
      expect(otel.spansOf('subscriptions/listen').map((span) => span.name)).toEqual([
        'subscriptions/listen',
      ]),
    );
    const [listen] = otel.spansOf('subscriptions/listen');
    expect(listen!.attributes).toMatchObject({
      'jsonrpc.request.id': expect.any(String),
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    });
    await client.close();
  });
});

describe('telemetry options', () => {
  let otel: InMemoryOtel;
  let running: RunningApp | undefined;

  beforeAll(() => {
    otel = InMemoryOtel.install();
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    otel.spans.reset();
  });
  afterAll(() => otel?.uninstall());

  it('records arguments and results only with recordArguments', async () => {
    running = await startApp(telemetryAppModule({ telemetry: { recordArguments: true } }));
    const client = await connectModernClient(running.url);
    const span = await spanOf(otel, 'tools/call', () =>
      client.callTool('get_weather', { city: 'Lyon' }),
    );
    expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({
      city: 'Lyon',
    });
    expect(JSON.parse(span.attributes['gen_ai.tool.call.result'] as string)).toEqual({
      city: 'Lyon',
      temperature: 21,
    });
    await client.close();
  });

  it('names resource spans by their URI with resourceUriInSpanName', async () => {
    running = await startApp(telemetryAppModule({ telemetry: { resourceUriInSpanName: true } }));
    const client = await connectLegacyClient(running.url);
    const span = await spanOf(otel, 'resources/read', () =>
      client.sdk.readResource({ uri: 'weather://cities' }),
    );
    expect(span.name).toBe('resources/read weather://cities');
    await client.close();
  });

  it('times validation, guards and the method as child spans with phaseSpans', async () => {
    running = await startApp(telemetryAppModule({ telemetry: { phaseSpans: true } }));
    const client = await connectLegacyClient(running.url);
    const call = await spanOf(otel, 'tools/call', () =>
      client.callTool('get_weather', { city: 'Lyon' }),
    );
    const children = otel.spans
      .getFinishedSpans()
      .filter((span) => span.parentSpanContext?.spanId === call.spanContext().spanId);
    expect(children.map((span) => span.name)).toEqual(['validate arguments', 'guards', 'method']);
    await client.close();
  });

  it('records nothing with telemetry: false', async () => {
    running = await startApp(telemetryAppModule({ telemetry: false }));
    const before = countOf(await otel.histogram('mcp.server.operation.duration'));
    const client = await connectLegacyClient(running.url);
    await client.callTool('get_weather', { city: 'Lyon' });
    await client.close();
    expect(mcpSpans(otel)).toEqual([]);
    expect(countOf(await otel.histogram('mcp.server.operation.duration'))).toBe(before);
  });
});

describe('on Fastify', () => {
  let otel: InMemoryOtel;
  let running: RunningApp;

  beforeAll(async () => {
    otel = InMemoryOtel.install();
    running = await startApp(telemetryAppModule(), { adapter: 'fastify' });
  });
  afterAll(async () => {
    await running?.close();
    await otel?.uninstall();
  });

  it.each(ERAS)('reads the client of a $label from the Fastify request', async ({ connect }) => {
    const client = await connect(running.url);
    const span = await spanOf(otel, 'tools/call', () =>
      client.callTool('get_weather', { city: 'Lyon' }),
    );
    expect(span.attributes).toMatchObject({
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number),
      'network.transport': 'tcp',
      'network.protocol.version': '1.1',
    });
    await client.close();
  });
});

describe('2025 sessions', () => {
  let otel: InMemoryOtel;
  let running: RunningApp;

  beforeAll(async () => {
    otel = InMemoryOtel.install();
    running = await startApp(telemetryAppModule({ legacySessions: true }));
  });
  afterAll(async () => {
    await running?.close();
    await otel?.uninstall();
  });

  it('carries the session id on each span and records the session duration when it ends', async () => {
    const client = await connectLegacyClient(running.url);
    const sessionId = client.sdk.transport.sessionId as string;
    expect(sessionId).toEqual(expect.any(String));
    const span = await spanOf(otel, 'tools/call', () =>
      client.callTool('get_weather', { city: 'Lyon' }),
    );
    expect(span.attributes['mcp.session.id']).toBe(sessionId);
    // Each request of a session is read from its own HTTP request.
    expect(span.attributes['client.address']).toEqual(expect.stringContaining('127.0.0.1'));
    expect(span.attributes['client.port']).toEqual(expect.any(Number));
    expect(await otel.histogram('mcp.server.session.duration')).toEqual([]);
    await client.sdk.transport.terminateSession();
    await client.close();
    await vi.waitFor(async () => {
      const [session] = await otel.histogram('mcp.server.session.duration');
      expect(session?.value.count).toBe(1);
      expect(session?.attributes).toEqual({
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'network.protocol.version': '1.1',
      });
    });
  });

  it('ends a cancelled call with error.type cancelled', async () => {
    const client = await connectLegacyClient(running.url);
    otel.spans.reset();
    const aborted = new AbortController();
    const call = client.sdk.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: aborted.signal,
    });
    await vi.waitFor(() => expect(waitingCalls.count).toBe(1));
    aborted.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(otel.spansOf('tools/call')).toHaveLength(1));
    const [span] = otel.spansOf('tools/call');
    expect(span!.attributes['error.type']).toBe('cancelled');
    expect(otel.spansOf('notifications/cancelled')).toHaveLength(1);
    await client.close();
  });

  it('never puts a session id on 2026-07-28 spans', async () => {
    const client = await connectModernClient(running.url);
    const span = await spanOf(otel, 'tools/call', () =>
      client.callTool('get_weather', { city: 'Lyon' }),
    );
    expect(span.attributes).not.toHaveProperty('mcp.session.id');
    await client.close();
  });
});

/** A 2025-era JSON-RPC client on the two ends of `bootstrapStdio`'s streams. */
class LineClient {
  private readonly waiting = new Map<number, (message: Record<string, any>) => void>();
  private buffered = '';
  private nextId = 1;

  constructor(
    private readonly stdin: PassThrough,
    stdout: PassThrough,
  ) {
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      this.buffered += chunk;
      let end: number;
      while ((end = this.buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(this.buffered.slice(0, end)) as Record<string, any>;
        this.buffered = this.buffered.slice(end + 1);
        this.waiting.get(message.id)?.(message);
      }
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }
}

describe('over stdio', () => {
  let otel: InMemoryOtel;

  beforeAll(() => {
    otel = InMemoryOtel.install();
  });
  afterAll(() => otel?.uninstall());

  it('records pipe spans and the length of the connection', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const server = await bootstrapStdio(telemetryAppModule(), {
      stdin,
      stdout,
      exitOnClose: false,
      logger: false,
    });
    const client = new LineClient(stdin, stdout);
    const initialized = await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'telemetry-e2e', version: '1.0.0' },
    });
    expect(initialized.result.protocolVersion).toBe('2025-11-25');
    client.notify('notifications/initialized');
    const span = await spanOf(otel, 'tools/call', async () => {
      const answer = await client.request('tools/call', {
        name: 'get_weather',
        arguments: { city: 'Lyon' },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(answer.result.isError).toBeUndefined();
    });
    expect(span.name).toBe('tools/call get_weather');
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(span.attributes).toMatchObject({
      'network.transport': 'pipe',
      'mcp.protocol.version': '2025-11-25',
    });
    for (const absent of ['client.address', 'network.protocol.name', 'mcp.session.id']) {
      expect(span.attributes).not.toHaveProperty(absent);
    }
    await server.close();
    const [session] = await otel.histogram('mcp.server.session.duration');
    expect(session?.value.count).toBe(1);
    expect(session?.attributes).toEqual({
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
  });
  it('records 2026-07-28 requests over stdio, with no session', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const server = await bootstrapStdio(telemetryAppModule(), {
      stdin,
      stdout,
      exitOnClose: false,
      logger: false,
    });
    const client = new LineClient(stdin, stdout);
    const before = countOf(await otel.histogram('mcp.server.session.duration'));
    const span = await spanOf(otel, 'tools/call', async () => {
      const answer = await client.request('tools/call', {
        name: 'get_weather',
        arguments: { city: 'Lyon' },
        _meta: { ...modernMeta('telemetry-e2e'), traceparent: TRACEPARENT },
      });
      expect(answer.result.structuredContent).toEqual({ city: 'Lyon', temperature: 21 });
    });
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(span.attributes).toMatchObject({
      'network.transport': 'pipe',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(span.attributes).not.toHaveProperty('mcp.session.id');
    await server.close();
    expect(countOf(await otel.histogram('mcp.server.session.duration'))).toBe(before);
  });
});
