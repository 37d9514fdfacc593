import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TelemetryReading, TelemetrySetup } from '../support/ipc.js';

// What an app does in its `tracing.ts`, before it creates the Nest app: the telemetry
// experiment's servers of ours run with no OpenTelemetry, the API alone, or an SDK with a
// batch span processor and a metric reader. The span exporter counts each batch and keeps
// nothing; the metric exporter is the SDK's in-memory one, emptied every second after
// counting: the SDK's span and metric lifecycle is measured, not a network exporter's
// serialisation (which is the app's choice, and runs off the request path, in the batch).

const OPERATION_DURATION = 'mcp.server.operation.duration';
const EMPTY_EVERY_MS = 1000;

type Exported = Omit<TelemetryReading, 'httpRequests'>;

export interface TelemetryHandle {
  reading(): Promise<Exported>;
  shutdown(): Promise<void>;
  /** `floor` and `floor-node`: instruments the app's HTTP server by hand, once it listens. */
  instrument?(server: Server): void;
}

const apiResolvable = () =>
  import('@opentelemetry/api').then(
    () => true,
    () => false,
  );

export async function setUpTelemetry(setup: TelemetrySetup | undefined): Promise<TelemetryHandle> {
  const none = async (): Promise<Exported> => ({
    setup: setup ?? 'none',
    apiResolvable: await apiResolvable(),
    spans: 0,
    spanNames: {},
    durationMeasurements: 0,
  });
  if (setup === undefined) return { reading: none, shutdown: async () => undefined };
  if (setup === 'absent') {
    // bench/support/register.ts hides `@opentelemetry/*` in this process; make sure it did.
    if (await apiResolvable()) throw new Error('telemetry "absent", yet @opentelemetry/api loads');
    return { reading: none, shutdown: async () => undefined };
  }
  if (setup === 'api') {
    // Loaded as a dependency of some other package would load it; nothing registered.
    await import('@opentelemetry/api');
    return { reading: none, shutdown: async () => undefined };
  }
  return setUpSdk(setup);
}

async function setUpSdk(
  setup: 'basic' | 'sdk' | 'traces' | 'http' | 'http-off' | 'floor' | 'floor-node',
): Promise<TelemetryHandle> {
  const api = await import('@opentelemetry/api');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { ExportResultCode } = await import('@opentelemetry/core');
  const {
    AggregationTemporality,
    InMemoryMetricExporter,
    MeterProvider,
    PeriodicExportingMetricReader,
  } = await import('@opentelemetry/sdk-metrics');

  let spans = 0;
  const spanNames: Record<string, number> = {};
  // Counts what each batch brings and keeps nothing: an exporter that held the spans (the
  // SDK's in-memory one, emptied every second) would keep a second of them alive, which
  // the old generation's collector pays for and no network exporter does.
  const spanExporter: SpanExporter = {
    export(batch, done) {
      spans += batch.length;
      for (const span of batch)
        if (span.name in spanNames || Object.keys(spanNames).length < 10)
          spanNames[span.name] = (spanNames[span.name] ?? 0) + 1;
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => undefined,
  };
  // The SDK's defaults (a batch of up to 512 spans, sent every 5 s or when full).
  const spanProcessors = [new BatchSpanProcessor(spanExporter)];
  let tracerProvider: { forceFlush(): Promise<void>; shutdown(): Promise<void> };
  if (setup !== 'basic' && setup !== 'floor') {
    const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
    const provider = new NodeTracerProvider({ spanProcessors });
    // What NodeSDK does: the AsyncLocalStorage context manager and the W3C propagators.
    provider.register();
    tracerProvider = provider;
    if (setup === 'http' || setup === 'http-off') {
      const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
      const instrumentation = new HttpInstrumentation();
      instrumentation.setTracerProvider(provider);
      instrumentation.enable();
      // The instrumentation patches `http` when it is next required, before the app is made.
      createRequire(import.meta.url)('node:http');
    }
  } else {
    const provider = new BasicTracerProvider({ spanProcessors });
    api.trace.setGlobalTracerProvider(provider);
    tracerProvider = provider;
  }

  // `traces`: tracing only, as an app that exports no metrics has it.
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  const meterProvider =
    setup === 'traces'
      ? undefined
      : new MeterProvider({
          readers: [
            new PeriodicExportingMetricReader({
              exporter: metricExporter,
              exportIntervalMillis: EMPTY_EVERY_MS,
            }),
          ],
        });
  if (meterProvider) api.metrics.setGlobalMeterProvider(meterProvider);

  let durationMeasurements = 0;
  const empty = () => {
    for (const resource of metricExporter.getMetrics())
      for (const scope of resource.scopeMetrics)
        for (const metric of scope.metrics)
          if (metric.descriptor.name === OPERATION_DURATION)
            for (const point of metric.dataPoints)
              durationMeasurements += (point.value as { count?: number }).count ?? 0;
    metricExporter.reset();
  };
  const timer = setInterval(empty, EMPTY_EVERY_MS);
  timer.unref();

  return {
    ...((setup === 'floor' || setup === 'floor-node') && {
      instrument: (server: Server) => instrumentByHand(server, api),
    }),
    async reading() {
      await tracerProvider.forceFlush();
      await meterProvider?.forceFlush();
      empty();
      return {
        setup,
        apiResolvable: true,
        spans,
        spanNames: { ...spanNames },
        durationMeasurements,
      };
    },
    async shutdown() {
      clearInterval(timer);
      await tracerProvider.shutdown();
      await meterProvider?.shutdown();
    },
  };
}

/**
 * `floor` and `floor-node`: the least an instrumentation can do to emit what the
 * conventions ask of the bench's request, with the library's telemetry off: per HTTP
 * request, one SERVER span with the attributes the library gives it (known in advance: one
 * tool, one wire, so no body is read and nothing is looked up), the request served in the
 * span's context (as the HTTP instrumentation serves it: what the app starts is a child),
 * and one measurement of the duration histogram with the metric's attributes. What this
 * costs over no OpenTelemetry is the SDK's own price for one span and one measurement
 * (and, with `NodeTracerProvider`, for its AsyncLocalStorage context), which no
 * instrumentation of the request avoids.
 */
function instrumentByHand(server: Server, api: typeof import('@opentelemetry/api')): void {
  const tracer = api.trace.getTracer('bench-floor');
  const histogram = api.metrics
    .getMeter('bench-floor')
    .createHistogram(OPERATION_DURATION, { unit: 's' });
  const shared = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'add_numbers',
    'mcp.protocol.version': '2026-07-28',
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'network.protocol.version': '1.1',
  };
  type Listener = (request: IncomingMessage, response: ServerResponse) => void;
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  const serve = (request: IncomingMessage, response: ServerResponse) => {
    for (const listener of listeners) listener.call(server, request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = performance.now();
    const span = tracer.startSpan('tools/call add_numbers', {
      kind: api.SpanKind.SERVER,
      attributes: {
        ...shared,
        'jsonrpc.request.id': '1',
        'client.address': request.socket.remoteAddress,
        'client.port': request.socket.remotePort,
      },
    });
    response.once('finish', () => {
      span.end();
      histogram.record((performance.now() - startedAt) / 1000, { ...shared });
    });
    api.context.with(
      api.trace.setSpan(api.context.active(), span),
      serve,
      undefined,
      request,
      response,
    );
  });
}
