/**
 * `SAMPLE_OTEL=console`: the sample prints its OpenTelemetry spans (one per MCP request,
 * named `tools/call search_products` and so on) and, every 10 seconds, its metrics, as an
 * app's `tracing.ts` would set up an exporter. The library needs nothing more: it emits as
 * soon as a provider is registered. Without `SAMPLE_OTEL`, nothing of the SDK is loaded.
 * See docs/observability.md for an OTLP exporter and Jaeger.
 */
export async function startSampleTelemetry(
  transport: 'http' | 'stdio',
  setting = process.env.SAMPLE_OTEL,
): Promise<void> {
  if (!setting) return;
  if (setting !== 'console') {
    throw new Error(`SAMPLE_OTEL must be console (or unset), not ${setting}`);
  }
  // Loaded only now, so that a run without SAMPLE_OTEL loads none of it.
  const { metrics } = await import('@opentelemetry/api');
  const { ConsoleSpanExporter, SimpleSpanProcessor } =
    await import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } =
    await import('@opentelemetry/sdk-metrics');
  const { StderrConsoleMetricExporter, StderrConsoleSpanExporter } =
    await import('./stderr-console.exporters.js');

  // Over stdio, stdout carries MCP alone: the spans and metrics go to stderr.
  const stdio = transport === 'stdio';
  const tracerProvider = new NodeTracerProvider({
    // Each span is printed when it ends; a real exporter batches (BatchSpanProcessor).
    spanProcessors: [
      new SimpleSpanProcessor(stdio ? new StderrConsoleSpanExporter() : new ConsoleSpanExporter()),
    ],
  });
  // The global tracer provider, the AsyncLocalStorage context manager, W3C propagators.
  tracerProvider.register();
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({
          exporter: stdio ? new StderrConsoleMetricExporter() : new ConsoleMetricExporter(),
          exportIntervalMillis: 10_000,
        }),
      ],
    }),
  );
  process.stderr.write(
    `SAMPLE_OTEL=console: spans are printed on ${stdio ? 'stderr' : 'stdout'} as they end, metrics every 10 s\n`,
  );
}
