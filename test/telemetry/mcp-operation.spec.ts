import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpOperation, type OperationFacts } from '../../lib/telemetry/mcp-operation.js';
import { McpTelemetry } from '../../lib/telemetry/mcp-telemetry.js';
import type { McpTelemetryOptions } from '../../lib/interfaces/mcp-telemetry-options.interface.js';
import { InMemoryOtel } from './in-memory-otel.js';

const OPERATION_DURATION = 'mcp.server.operation.duration';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PEER = {
  transport: 'tcp',
  protocolName: 'http',
  protocolVersion: '1.1',
  address: '10.0.0.7',
  port: 51_000,
} as const;

let requestIds = 0;

/** The facts of a `tools/call` of `name`, with a fresh request id; overrides win. */
const facts = (name: string, overrides: Partial<OperationFacts> = {}): OperationFacts => ({
  method: 'tools/call',
  id: ++requestIds,
  params: { name, arguments: { query: 'lamp' } },
  peer: PEER,
  knownTarget: true,
  protocolVersion: () => '2026-07-28',
  ...overrides,
});

const operation = (operationFacts: OperationFacts, options: McpTelemetryOptions = {}) =>
  new McpOperation(McpTelemetry.create(options)!, operationFacts);

describe('McpOperation', () => {
  let otel: InMemoryOtel;
  beforeAll(() => {
    otel = InMemoryOtel.install();
  });
  afterAll(() => otel?.uninstall());

  /** The one finished span whose request id is `id`. */
  const spanOf = (id: string | number | undefined): ReadableSpan => {
    const found = otel.spans
      .getFinishedSpans()
      .filter((span) => span.attributes['jsonrpc.request.id'] === String(id));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  /** The data points of the operation metric that name the tool `name`, or no tool at all. */
  const pointsOf = async (match: (attributes: Record<string, unknown>) => boolean) =>
    (await otel.histogram(OPERATION_DURATION)).filter((point) => match(point.attributes));

  it('names the span after the method and a known tool, with the conventions’ attributes', async () => {
    const call = facts('search_products', { sessionId: 'session-1' });
    operation(call).end({ jsonrpc: '2.0', id: call.id!, result: { content: [] } });
    const span = spanOf(call.id);
    expect(span.name).toBe('tools/call search_products');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': String(call.id),
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_products',
      'mcp.session.id': 'session-1',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'client.address': '10.0.0.7',
      'client.port': 51_000,
      'mcp.protocol.version': '2026-07-28',
    });
  });

  it('records the duration the span took, with the attributes that stay few', async () => {
    const call = facts('duration_tool');
    operation(call).end({ jsonrpc: '2.0', id: call.id!, result: { content: [] } });
    const [point] = await pointsOf((a) => a['gen_ai.tool.name'] === 'duration_tool');
    expect(point?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'duration_tool',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'network.transport': 'tcp',
    });
    const [seconds, nanos] = spanOf(call.id).duration;
    expect(point?.value.count).toBe(1);
    expect(point?.value.sum).toBeCloseTo(seconds + nanos / 1e9, 9);
  });

  it('keeps a name the catalog does not have out of the span name and the metric', async () => {
    const call = facts('made_up_by_client', { knownTarget: false });
    operation(call).end({ jsonrpc: '2.0', id: call.id!, result: { content: [] } });
    const span = spanOf(call.id);
    expect(span.name).toBe('tools/call');
    expect(span.attributes['gen_ai.tool.name']).toBe('made_up_by_client');
    const points = await otel.histogram(OPERATION_DURATION);
    expect(points.some((p) => p.attributes['gen_ai.tool.name'] === 'made_up_by_client')).toBe(
      false,
    );
  });

  it('records arguments and result only with recordArguments, and skips what JSON cannot hold', () => {
    const result = { content: [{ type: 'text', text: '{"n":2}' }], structuredContent: { n: 2 } };
    const recorded = facts('record_tool');
    operation(recorded, { recordArguments: true }).end({
      jsonrpc: '2.0',
      id: recorded.id!,
      result,
    });
    expect(spanOf(recorded.id).attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"query":"lamp"}',
      'gen_ai.tool.call.result': '{"n":2}',
    });

    const plain = facts('record_tool');
    operation(plain).end({ jsonrpc: '2.0', id: plain.id!, result });
    expect(Object.keys(spanOf(plain.id).attributes)).not.toContain('gen_ai.tool.call.arguments');
    expect(Object.keys(spanOf(plain.id).attributes)).not.toContain('gen_ai.tool.call.result');

    const unserializable = facts('record_tool', {
      params: { name: 'record_tool', arguments: { big: 1n } },
    });
    operation(unserializable, { recordArguments: true }).end();
    expect(Object.keys(spanOf(unserializable.id).attributes)).not.toContain(
      'gen_ai.tool.call.arguments',
    );
  });

  it('marks an isError result as a tool_error', async () => {
    const call = facts('failing_tool');
    operation(call, { recordArguments: true }).end({
      jsonrpc: '2.0',
      id: call.id!,
      result: { isError: true, content: [{ type: 'text', text: 'out of stock' }] },
    });
    const span = spanOf(call.id);
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
    const [point] = await pointsOf((a) => a['gen_ai.tool.name'] === 'failing_tool');
    expect(point?.attributes['error.type']).toBe('tool_error');
  });

  it('marks a JSON-RPC error with its code, described by its message', () => {
    const call = facts('invalid_call');
    operation(call).end({
      jsonrpc: '2.0',
      id: call.id!,
      error: { code: -32602, message: 'Invalid arguments' },
    });
    const span = spanOf(call.id);
    expect(span.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'mcp.method.name': 'tools/call',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Invalid arguments' });
  });

  it('names and counts every method no handler serves as one, _OTHER, the span keeping it', async () => {
    const call = facts('', { method: 'vendor/secret_probe', params: {} });
    operation(call).end({
      jsonrpc: '2.0',
      id: call.id!,
      error: { code: -32601, message: 'Method not found' },
    });
    const span = spanOf(call.id);
    expect(span.name).toBe('_OTHER');
    expect(span.attributes['mcp.method.name']).toBe('vendor/secret_probe');
    const points = await pointsOf((a) => a['rpc.response.status_code'] === '-32601');
    expect(points.map((p) => p.attributes['mcp.method.name'])).toEqual(['_OTHER']);
  });

  it('names a prompt, and a resource URI in the span name only when asked', () => {
    const prompt = facts('', { method: 'prompts/get', params: { name: 'restock_plan' } });
    operation(prompt).end();
    expect(spanOf(prompt.id).name).toBe('prompts/get restock_plan');
    expect(spanOf(prompt.id).attributes['gen_ai.prompt.name']).toBe('restock_plan');

    const uri = 'catalog://products/42';
    const read = facts('', { method: 'resources/read', params: { uri } });
    operation(read).end();
    expect(spanOf(read.id).name).toBe('resources/read');
    expect(spanOf(read.id).attributes['mcp.resource.uri']).toBe(uri);

    const named = facts('', { method: 'resources/subscribe', params: { uri } });
    operation(named, { resourceUriInSpanName: true }).end();
    expect(spanOf(named.id).name).toBe(`resources/subscribe ${uri}`);
  });

  it('reads the protocol version again at the end, as initialize negotiates it', () => {
    let negotiated: string | undefined;
    const call = facts('', {
      method: 'initialize',
      params: {},
      protocolVersion: () => negotiated,
    });
    const initialize = operation(call);
    negotiated = '2025-11-25';
    initialize.end({ jsonrpc: '2.0', id: call.id!, result: {} });
    expect(spanOf(call.id).attributes['mcp.protocol.version']).toBe('2025-11-25');
  });

  it('ends once: a second end or an abandon changes nothing', async () => {
    const call = facts('once_tool');
    const once = operation(call);
    once.end({ jsonrpc: '2.0', id: call.id!, result: { content: [] } });
    once.abandon('cancelled');
    once.end({ jsonrpc: '2.0', id: call.id!, error: { code: -1, message: 'late' } });
    expect(spanOf(call.id).attributes['error.type']).toBeUndefined();
    const [point] = await pointsOf((a) => a['gen_ai.tool.name'] === 'once_tool');
    expect(point?.value.count).toBe(1);
  });

  it('ends an abandoned operation with the reason as error.type', () => {
    const call = facts('abandoned_tool');
    operation(call).abandon('connection_closed');
    expect(spanOf(call.id).attributes['error.type']).toBe('connection_closed');
    expect(spanOf(call.id).status.code).toBe(SpanStatusCode.ERROR);
  });

  it("continues the client's trace from _meta, linking the ambient span", () => {
    const parentSpanId = '00f067aa0ba902b7';
    const call = facts('traced_tool', {
      params: {
        name: 'traced_tool',
        _meta: { traceparent: `00-${TRACE_ID}-${parentSpanId}-01` },
      },
    });
    const ambient = trace.getTracer('http').startSpan('POST /mcp');
    context.with(trace.setSpan(context.active(), ambient), () => operation(call).end());
    ambient.end();
    const span = spanOf(call.id);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(span.links.map((link) => link.context.spanId)).toEqual([ambient.spanContext().spanId]);
  });

  it('is a child of the ambient span when _meta carries no context, with no link', () => {
    const call = facts('ambient_tool');
    const ambient = trace.getTracer('http').startSpan('POST /mcp');
    context.with(trace.setSpan(context.active(), ambient), () => operation(call).end());
    ambient.end();
    const span = spanOf(call.id);
    expect(span.spanContext().traceId).toBe(ambient.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(ambient.spanContext().spanId);
    expect(span.links).toEqual([]);
  });

  it("runs work in the operation's context, and links to its span", () => {
    const call = facts('parent_tool');
    const parent = operation(call);
    let child: ReadableSpan | undefined;
    parent.run((name: string) => {
      const span = trace.getTracer('app').startSpan(name);
      span.end();
      child = span as unknown as ReadableSpan;
    }, 'load products');
    const link = parent.link();
    parent.end();
    const span = spanOf(call.id);
    expect(child?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(link?.context.spanId).toBe(span.spanContext().spanId);
  });
});

describe('McpOperation without a tracer provider', () => {
  let otel: InMemoryOtel;
  beforeAll(() => {
    otel = InMemoryOtel.install();
    trace.disable();
  });
  afterAll(() => otel?.uninstall());

  it('records the metric alone, timing the operation itself, in the caller’s context', async () => {
    const call = facts('untraced_tool');
    const untraced = operation(call);
    expect(untraced.link()).toBeUndefined();
    expect(untraced.context).toBe(context.active());
    untraced.end({ jsonrpc: '2.0', id: call.id!, result: { content: [] } });
    expect(otel.spans.getFinishedSpans()).toEqual([]);
    const points = (await otel.histogram(OPERATION_DURATION)).filter(
      (point) => point.attributes['gen_ai.tool.name'] === 'untraced_tool',
    );
    expect(points).toHaveLength(1);
    expect(points[0]!.value.sum).toBeGreaterThanOrEqual(0);
  });
});
