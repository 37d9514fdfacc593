import type { Histogram, Meter, Tracer, TracerProvider } from '@opentelemetry/api';
import type { McpTelemetryOptions } from '../interfaces/mcp-telemetry-options.interface.js';
import { DURATION_BUCKETS, METRIC } from './mcp-semantic-conventions.js';
import { loadOpenTelemetryApi, packageVersion, type OtelApi } from './opentelemetry-api.loader.js';

/** The instrumentation scope of the spans and metrics: this package. */
const SCOPE = 'nestjs-mcp';

/** The two histograms of the conventions, from the meter provider registered now. */
export interface McpInstruments {
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
}

/**
 * What records the MCP requests of one server: the OpenTelemetry API (loaded at bootstrap)
 * and the options. Whether anything records is decided per request, from the providers
 * registered at that moment, so an app may register its SDK before or after bootstrap, and
 * with none registered a request costs two global reads.
 */
export class McpTelemetry {
  private readonly noopTracerProvider: TracerProvider;
  private readonly noopMeter: Meter;
  private readonly version = packageVersion();
  private tracerProvider?: TracerProvider;
  private tracer?: Tracer;
  private meterProvider?: object;
  private instruments?: McpInstruments;

  private constructor(
    readonly api: OtelApi,
    readonly options: Readonly<McpTelemetryOptions>,
  ) {
    // The API hands out these no-op singletons while no provider is registered.
    this.noopTracerProvider = new api.ProxyTracerProvider().getDelegate();
    this.noopMeter = api.createNoopMeter();
  }

  /** `undefined` when telemetry is turned off or `@opentelemetry/api` is not installed. */
  static create(options: McpTelemetryOptions | false | undefined): McpTelemetry | undefined {
    if (options === false) return undefined;
    const api = loadOpenTelemetryApi();
    return api && new McpTelemetry(api, options ?? {});
  }

  /** The tracer of the registered tracer provider; `undefined` while none is registered. */
  currentTracer(): Tracer | undefined {
    const global = this.api.trace.getTracerProvider() as TracerProvider & {
      getDelegate?: () => TracerProvider;
    };
    const provider = global.getDelegate?.() ?? global;
    if (provider !== this.tracerProvider) {
      this.tracerProvider = provider;
      this.tracer =
        provider === this.noopTracerProvider ? undefined : provider.getTracer(SCOPE, this.version);
    }
    return this.tracer;
  }

  /** The histograms of the registered meter provider; `undefined` while none is registered. */
  currentInstruments(): McpInstruments | undefined {
    const provider = this.api.metrics.getMeterProvider();
    if (provider !== this.meterProvider) {
      this.meterProvider = provider;
      const meter = provider.getMeter(SCOPE, this.version);
      this.instruments = meter === this.noopMeter ? undefined : histogramsOf(meter);
    }
    return this.instruments;
  }

  /** Whether a tracer or a meter provider is registered now. */
  get recording(): boolean {
    return this.currentTracer() !== undefined || this.currentInstruments() !== undefined;
  }
}

function histogramsOf(meter: Meter): McpInstruments {
  const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
  return {
    operationDuration: meter.createHistogram(METRIC.OPERATION_DURATION, {
      unit: 's',
      description:
        'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
      advice,
    }),
    sessionDuration: meter.createHistogram(METRIC.SESSION_DURATION, {
      unit: 's',
      description: 'The duration of the MCP session as observed on the MCP server.',
      advice,
    }),
  };
}
