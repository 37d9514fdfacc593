import { TELEMETRY_EXPERIMENT } from '../bench.config.js';
import type { TelemetryReading, TelemetrySetup } from './ipc.js';
import type { RoundSample, Target, VariantReport } from './report.js';
import { pairKey, type PairedSamples } from './rounds.js';
import { median, round } from './stats.js';

/** The telemetry experiment's variants (g): one server each, `tools/call` on the 2026 wire. */
export const TELEMETRY_SETUPS: ReadonlyArray<{
  setup: TelemetrySetup;
  id: string;
  label: string;
  /** Only in `--only telemetry` (the full run keeps within its 3 minutes). */
  aloneOnly?: boolean;
}> = [
  { setup: 'absent', id: 'g-absent', label: '(g) call, no OpenTelemetry' },
  { setup: 'api', id: 'g-api', label: '(g) call, API, no provider' },
  {
    setup: 'basic',
    id: 'g-basic',
    label: '(g) call, BasicTracerProvider',
    aloneOnly: true,
  },
  { setup: 'sdk', id: 'g-sdk', label: '(g) call, NodeTracerProvider' },
  {
    setup: 'traces',
    id: 'g-traces',
    label: '(g) call, NodeTracerProvider, no meter',
    aloneOnly: true,
  },
  {
    setup: 'http-off',
    id: 'g-http-off',
    label: '(g) call, + HTTP instr., telemetry off',
    aloneOnly: true,
  },
  { setup: 'http', id: 'g-http', label: '(g) call, + HTTP instrumentation', aloneOnly: true },
  {
    setup: 'floor',
    id: 'g-floor',
    label: '(g) call, Basic, by hand, library off',
    aloneOnly: true,
  },
  {
    setup: 'floor-node',
    id: 'g-floor-node',
    label: '(g) call, Node, by hand, library off',
    aloneOnly: true,
  },
];

export interface TelemetryComparison {
  of: string;
  to: string;
  /** CPU ms per request of `of` ÷ that of `to`, both medians across rounds. */
  cpuPerRequest: number;
  /**
   * The median of the same ratio taken round by round: each pair measured seconds apart,
   * or, with `--only telemetry`, at the same time (`sameWindow`).
   */
  cpuPerRequestPaired: number;
  sameWindow: boolean;
  /** requests/s of `of` ÷ that of `to`, for information. */
  requestsPerSecond: number;
}

export interface TelemetrySection {
  /** Whether the library emitted spans in the SDK servers (false: (g) measures nothing new). */
  active: boolean;
  comparisons: TelemetryComparison[];
  /** What each server exported by the end of the run. */
  readings: Record<string, TelemetryReading>;
  targets: Target[];
}

const cpu = (rounds: RoundSample[]) => median(rounds.map((r) => r.cpuMsPerRequest));
const rps = (rounds: RoundSample[]) => median(rounds.map((r) => r.requestsPerSecond));

function compare(
  variants: VariantReport[],
  of: string,
  to: string,
  windows?: PairedSamples,
): TelemetryComparison {
  const find = (id: string) => variants.find((variant) => variant.id === id)!.rounds;
  const ofRounds: RoundSample[] = windows?.of ?? find(of);
  const toRounds: RoundSample[] = windows?.to ?? find(to);
  const paired = ofRounds.map(
    (sample, index) => sample.cpuMsPerRequest / toRounds[index]!.cpuMsPerRequest,
  );
  return {
    of,
    to,
    cpuPerRequest: round(cpu(ofRounds) / cpu(toRounds)),
    cpuPerRequestPaired: round(median(paired)),
    sameWindow: windows !== undefined,
    requestsPerSecond: round(rps(ofRounds) / rps(toRounds)),
  };
}

/**
 * What each setup is compared with, in its own pair of servers: the same app with no
 * OpenTelemetry; the instrumented app's library telemetry with the same app with
 * `telemetry: false` (what the library adds to an app that has the SDK anyway); and the
 * library's setups with the hand-made floor of the same tracer provider (what the library
 * adds beyond the SDK's own price). Those without a threshold are for information.
 */
export const TELEMETRY_COMPARISONS: ReadonlyArray<{
  of: string;
  to: string;
  threshold?: number;
}> = [
  { of: 'g-api', to: 'g-absent', threshold: TELEMETRY_EXPERIMENT.maxCpuRatio.api },
  { of: 'g-basic', to: 'g-absent', threshold: TELEMETRY_EXPERIMENT.maxCpuRatio.sdk },
  { of: 'g-sdk', to: 'g-absent', threshold: TELEMETRY_EXPERIMENT.maxCpuRatio.sdk },
  { of: 'g-traces', to: 'g-absent', threshold: TELEMETRY_EXPERIMENT.maxCpuRatio.sdk },
  // The app's own instrumentation, not the library's.
  { of: 'g-http-off', to: 'g-absent' },
  { of: 'g-http', to: 'g-http-off', threshold: TELEMETRY_EXPERIMENT.maxCpuRatio.sdk },
  // The SDK's own price for one span and one measurement, and the library beyond it.
  { of: 'g-floor', to: 'g-absent' },
  { of: 'g-floor-node', to: 'g-absent' },
  { of: 'g-basic', to: 'g-floor' },
  { of: 'g-sdk', to: 'g-floor-node' },
];

const labelOf = (id: string) => TELEMETRY_SETUPS.find((setup) => setup.id === id)!.label;

/** Ratios of each setup to its baseline, and the issue's targets. */
export function evaluateTelemetry(
  variants: VariantReport[],
  readings: Record<string, TelemetryReading>,
  windows?: Map<string, PairedSamples>,
): TelemetrySection {
  const present = TELEMETRY_SETUPS.filter((setup) => variants.some((v) => v.id === setup.id));
  const has = (id: string) => present.some((setup) => setup.id === id);
  const chosen = TELEMETRY_COMPARISONS.filter(({ of, to }) => has(of) && has(to));
  const comparisons = chosen.map(({ of, to }) =>
    compare(variants, of, to, windows?.get(pairKey(of, to))),
  );
  const active = present.some(
    (setup) => ['sdk', 'basic', 'traces'].includes(setup.setup) && readings[setup.id]!.spans > 0,
  );
  const rounds = variants[0]?.rounds.length ?? 0;
  const targets: Target[] = comparisons.flatMap((comparison, index): Target[] => {
    const { threshold } = chosen[index]!;
    if (threshold === undefined) return [];
    // Same-window pairs judge on the median of their ratios: the machine weighed on both.
    const value = comparison.sameWindow ? comparison.cpuPerRequestPaired : comparison.cpuPerRequest;
    const notes = [
      active
        ? comparison.sameWindow
          ? `ratio of medians: ${comparison.cpuPerRequest.toFixed(3)}`
          : `round by round: ${comparison.cpuPerRequestPaired.toFixed(3)}`
        : 'the library emitted no span: nothing new measured',
      // The full run's few sequential rounds; `--only telemetry` is the run that judges.
      ...(!comparison.sameWindow && rounds < TELEMETRY_EXPERIMENT.rounds
        ? [`${rounds} rounds: judge with --only telemetry`]
        : []),
    ];
    const setup = present.find((entry) => entry.id === comparison.of)!.setup;
    return [
      {
        id: `telemetry-${setup}`,
        description: `${labelOf(comparison.of).slice(4)} <= ${threshold} x ${labelOf(comparison.to).slice(10)}`,
        value,
        comparison: '<=',
        threshold,
        unit: 'x (CPU)',
        pass: value <= threshold,
        requestsPerSecondValue: comparison.requestsPerSecond,
        note: notes.join('; '),
      },
    ];
  });
  return { active, comparisons, readings, targets };
}

/** The telemetry lines of the report: what each server exported, and the ratios. */
export function telemetryLines(section: TelemetrySection): string[] {
  const lines = ['', 'telemetry (g): what each server exported over the whole run'];
  for (const [id, reading] of Object.entries(section.readings)) {
    const perRequest = (count: number) =>
      (count / Math.max(1, reading.httpRequests)).toFixed(3).padStart(6);
    lines.push(
      `  ${id.padEnd(10)} ${String(reading.httpRequests).padStart(7)} HTTP requests, ` +
        `spans/request ${perRequest(reading.spans)}, duration measurements/request ` +
        `${perRequest(reading.durationMeasurements)}` +
        (reading.apiResolvable ? '' : ', @opentelemetry/api not resolvable'),
    );
    const names = Object.entries(reading.spanNames);
    if (names.length > 0)
      lines.push(`             spans: ${names.map(([name, n]) => `"${name}" x${n}`).join(', ')}`);
  }
  if (!section.active)
    lines.push(
      '  WARNING: no span exported: the library has no telemetry yet, (g) measures nothing new',
    );
  lines.push(
    '',
    'telemetry ratios                                   to         CPU/req  round by round   req/s',
  );
  for (const comparison of section.comparisons) {
    lines.push(
      `  ${labelOf(comparison.of).padEnd(40)} ${comparison.to.padEnd(12)} ` +
        `${comparison.cpuPerRequest.toFixed(3).padStart(7)} ` +
        `${comparison.cpuPerRequestPaired.toFixed(3).padStart(15)} ${comparison.requestsPerSecond.toFixed(2).padStart(7)}`,
    );
  }
  const sameWindow = section.comparisons.some((comparison) => comparison.sameWindow);
  lines.push(
    '  (CPU/req above 1: the setup costs more per request than the one it is compared to' +
      (sameWindow ? '; round by round: each pair loaded at the same time)' : ')'),
  );
  return lines;
}
