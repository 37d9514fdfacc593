/**
 * What OpenTelemetry a bench server of ours runs with (bench/apps/telemetry.setup.ts):
 * `absent`: `@opentelemetry/*` cannot be resolved, as in an app that does not install it;
 * `api`: the API loaded, no provider registered; `basic`: a `BasicTracerProvider` set as the
 * global one (no context manager) and a `MeterProvider`; `sdk`: a `NodeTracerProvider`
 * registered (AsyncLocalStorage context manager, W3C propagators) and a `MeterProvider`;
 * `traces`: the same `NodeTracerProvider` and no `MeterProvider` (tracing only);
 * `http`: `sdk` with the HTTP instrumentation (a span per HTTP request, as NodeSDK apps
 * have), and `http-off` the same with the library's `telemetry: false`; `floor` and
 * `floor-node`: `basic` and `sdk` with the library's `telemetry: false` and, instead, the
 * least any instrumentation does to emit the conventions' span and measurement
 * (apps/telemetry.setup.ts). The providers
 * export through the SDK's in-memory exporters, emptied every second.
 */
export type TelemetrySetup =
  'absent' | 'api' | 'basic' | 'sdk' | 'traces' | 'http' | 'http-off' | 'floor' | 'floor-node';

/** What a bench server process serves. */
export type ServerSpec =
  | { kind: 'ceiling' }
  | { kind: 'raw-sdk'; bridge?: 'sdk' | 'lean' | 'sdk-als' }
  | {
      kind: 'mcp';
      tools: number;
      mcp?: boolean;
      telemetry?: TelemetrySetup;
      /** The module's `http.leanPath` (variant (i): `false`); unset: the default. */
      leanPath?: boolean;
      /** The module's `i18n` with the German bench texts (apps/i18n.setup.ts, variant (j)). */
      i18n?: boolean;
    }
  /** `@rekog/mcp-nest` (bench/apps/mcp-nest.app.ts), with `tools` tools. */
  | { kind: 'mcp-nest'; tools: number };

/** A command from the bench runner to a server process. */
export type ServerCommand =
  | { id: number; command: 'cpu-start' }
  | { id: number; command: 'alloc-start' }
  | { id: number; command: 'alloc-stop' }
  | { id: number; command: 'cpu-stop' }
  | { id: number; command: 'memory' }
  | { id: number; command: 'telemetry' }
  | { id: number; command: 'close' };

/** Sent once the server listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Milliseconds from before the app module was made to `listen()` resolving. */
  bootMs: number;
  /** Milliseconds from process start (`performance.timeOrigin`) to the same point. */
  sinceProcessStartMs: number;
}

/**
 * Bytes allocated between `alloc-start` and `alloc-stop`, by V8's sampling heap profiler
 * (garbage included), summed per group of the allocating function's file.
 */
export interface AllocationReading {
  /** HTTP requests the server received in that window. */
  requests: number;
  bytesByGroup: Record<string, number>;
  /** The functions that allocated most, with their bytes (`name file:line`). */
  top: Array<[string, number]>;
}

/** CPU time the server process used between `cpu-start` and `cpu-stop`. */
export interface CpuReading {
  userUs: number;
  systemUs: number;
  /** HTTP requests the server received in that window. */
  requests: number;
  wallMs: number;
  /** When the window opened, in ms since the server process started (`performance.now()`). */
  startedAtMs: number;
}

/** `process.memoryUsage()` after forced garbage collection. */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** What a server's OpenTelemetry SDK exported so far (both providers flushed first). */
export interface TelemetryReading {
  setup: TelemetrySetup | 'none';
  /** Whether `import('@opentelemetry/api')` succeeds in the server process. */
  apiResolvable: boolean;
  /** Spans the span exporter received. */
  spans: number;
  /** The names of those spans, with their counts (the first 10 names). */
  spanNames: Record<string, number>;
  /** Measurements the `mcp.server.operation.duration` histogram recorded. */
  durationMeasurements: number;
  /** HTTP requests the server received since it started (warm-ups and probes included). */
  httpRequests: number;
}

export type ServerReply =
  | {
      id: number;
      ok: true;
      cpu?: CpuReading;
      memory?: MemoryReading;
      telemetry?: TelemetryReading;
      allocations?: AllocationReading;
    }
  | { id: number; ok: false; error: string };
