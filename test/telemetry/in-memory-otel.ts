import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A reader whose metrics the test collects when it wants them. */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One data point of a histogram, with its attributes. */
export type HistogramPoint = DataPoint<Histogram>;

/**
 * The real OpenTelemetry SDK, registered globally through the API as an app registers it
 * (tracer and meter providers, the async-hooks context manager, the W3C propagator), with
 * in-memory exporters. `uninstall()` removes all of it, so other specs see no provider.
 */
export class InMemoryOtel {
  readonly spans = new InMemorySpanExporter();
  private readonly reader = new CollectingReader();
  private readonly tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(this.spans)],
  });
  private readonly meterProvider = new MeterProvider({ readers: [this.reader] });

  static install(): InMemoryOtel {
    const otel = new InMemoryOtel();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    return otel;
  }

  async uninstall(): Promise<void> {
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
    await this.tracerProvider.shutdown();
    await this.meterProvider.shutdown();
  }

  /** The finished spans of one MCP method. */
  spansOf(method: string): ReadableSpan[] {
    return this.spans
      .getFinishedSpans()
      .filter((span) => span.attributes['mcp.method.name'] === method);
  }

  /** The data points of a histogram, as collected now. */
  async histogram(name: string): Promise<HistogramPoint[]> {
    const { resourceMetrics } = await this.reader.collect();
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .filter((metric) => metric.descriptor.name === name)
      .flatMap((metric) => metric.dataPoints as HistogramPoint[]);
  }
}
