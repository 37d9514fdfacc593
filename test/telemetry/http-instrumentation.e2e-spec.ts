import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { connectLegacyClient, connectModernClient } from '../support/mcp-clients.js';
import { telemetryAppModule } from './telemetry.fixture.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';

/**
 * An app instrumented as the OpenTelemetry docs set one up: `NodeTracerProvider.register()`
 * (the async-hooks context manager and the W3C propagator) and the HTTP instrumentation,
 * enabled before the app starts. The MCP span must then belong to the HTTP server span.
 */
describe('with the HTTP instrumentation', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const instrumentation = new HttpInstrumentation();
  let running: RunningApp;

  beforeAll(async () => {
    provider.register();
    instrumentation.setTracerProvider(provider);
    instrumentation.enable();
    // The instrumentation patches `http` when it is next required; the platforms hold it.
    createRequire(import.meta.url)('node:http');
    running = await startApp(telemetryAppModule());
  });
  afterAll(async () => {
    await running?.close();
    instrumentation.disable();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const serverSpans = () =>
    exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);

  it('makes the MCP span a child of the HTTP server span', async () => {
    const client = await connectModernClient(running.url);
    exporter.reset();
    await client.callTool('get_weather', { city: 'Lyon' });
    await client.close();
    const mcp = serverSpans().find((span) => span.name === 'tools/call get_weather');
    const http = serverSpans().find((span) => span.instrumentationScope.name.includes('http'));
    expect(http).toBeDefined();
    expect(mcp?.parentSpanContext?.spanId).toBe(http!.spanContext().spanId);
    expect(mcp?.spanContext().traceId).toBe(http!.spanContext().traceId);
  });

  it('parents it from _meta.traceparent instead, and links the HTTP server span', async () => {
    const client = await connectLegacyClient(running.url);
    exporter.reset();
    await client.sdk.callTool({
      name: 'get_weather',
      arguments: { city: 'Oslo' },
      _meta: { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` },
    });
    await client.close();
    const mcp = serverSpans().find((span) => span.name === 'tools/call get_weather');
    const http = serverSpans().find(
      (span) =>
        span.instrumentationScope.name.includes('http') &&
        span.spanContext().spanId === mcp?.links[0]?.context.spanId,
    );
    expect(mcp?.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(mcp?.spanContext().traceId).toBe(TRACE_ID);
    expect(http?.name).toMatch(/^POST/);
  });
});
