/** How long and how often each figure is measured. */
export interface BenchMode {
  // autocannon stops a timed run on its next 1 s sample tick, so every duration here is
  // a whole number of seconds: what is written is what runs.
  /** Rounds of the load variants, each round running every variant once, in turn. */
  rounds: number;
  /** Seconds of unmeasured load on each variant once, before the first round (JIT warm-up). */
  primeS: number;
  /** Seconds of unmeasured load right before each measured run. */
  warmupS: number;
  /** Seconds of each measured run. */
  durationS: number;
  /** Concurrent connections of the load generator. */
  connections: number;
  /** Tools of the app whose bootstrap is measured, with and without McpModule. */
  bootstrapTools: number;
  /** Fresh processes per bootstrap variant (the median is reported). */
  bootstrapRepetitions: number;
  /** Calls before the first heap reading. */
  heapWarmupCalls: number;
  /** Calls of each server whose allocations are sampled against the plain route's. */
  allocationCalls: number;
  /** Calls between the first and the last heap reading. */
  heapCalls: number;
}

export const BENCH_MODES: Record<'short' | 'long', BenchMode> = {
  // `npm run bench`: about 3 minutes on 2 cores, build included.
  short: {
    rounds: 3,
    primeS: 1,
    warmupS: 1,
    durationS: 2,
    connections: 10,
    bootstrapTools: 1000,
    bootstrapRepetitions: 2,
    heapWarmupCalls: 3_000,
    heapCalls: 12_000,
    allocationCalls: 10_000,
  },
  // `npm run bench:long`: about 12 minutes; the figures to publish.
  long: {
    rounds: 5,
    primeS: 5,
    warmupS: 2,
    durationS: 10,
    connections: 10,
    bootstrapTools: 1000,
    bootstrapRepetitions: 5,
    heapWarmupCalls: 10_000,
    heapCalls: 100_000,
    allocationCalls: 20_000,
  },
};

/**
 * The telemetry experiment (issue 18): `tools/call` on the app of ours (c) with no
 * OpenTelemetry, with the API and no provider, and with an SDK (batch span processor,
 * metric reader). `node dist-bench/run.js --only telemetry` runs it alone.
 */
export const TELEMETRY_EXPERIMENT = {
  /** Rounds when run alone (`--rounds N` overrides); the full run uses its mode's rounds. */
  rounds: 8,
  /** Seconds of unmeasured load on each variant before the first round, when run alone. */
  primeS: 3,
  /**
   * The most CPU per request each setup may cost, as a ratio to the server without
   * OpenTelemetry: the API with no provider 1% more, an SDK with a batch exporter 5% more.
   */
  maxCpuRatio: { api: 1.01, sdk: 1.05 },
} as const;
