import type { Ratio, Target, VariantReport } from './report.js';
import { round } from './stats.js';

// The targets of issues 7 and 19, judged on the medians of one run. A CPU target is judged
// on capacity (the throughput ratio the CPU per request implies), with the requests/s ratio
// beside it for information.

/** Issue 19: `tools/call` against each peer, on each wire. */
export const CALL_TARGETS = { rawSdk: 1.5, mcpNest: 1.5, ceiling: 0.6 } as const;
/** Issue 19: `tools/list` with 100 tools against `tools/call` (issue 7 had 0.8). */
export const LIST_100_TARGET = 1.0;
/** Issue 19: p99 latency of a call at most this many times the plain route's. */
export const P99_TARGET = 1.5;

export interface TargetInput {
  variants: readonly VariantReport[];
  ratios: Record<
    | 'oursToRawSdk2026'
    | 'oursToRawSdk2025'
    | 'oursToMcpNest2026'
    | 'oursToMcpNest2025'
    | 'oursToCeiling2026'
    | 'oursToCeiling2025'
    | 'list100ToCall',
    Ratio
  >;
  list: { costGrowth10To1000: number; bytesGrowth10To1000: number };
  bootstrap: { tools: number; delta: { bootMs: number } };
  heap: { calls: number; growthMB: number };
}

const check = (value: number, comparison: Target['comparison'], threshold: number): boolean =>
  comparison === '>='
    ? value >= threshold
    : comparison === '<='
      ? value <= threshold
      : value < threshold;

/** p99 of a variant ÷ p99 of the plain route (medians across rounds, 1 ms resolution). */
export function p99Ratio(variants: readonly VariantReport[], of: string): number {
  const p99 = (id: string) => variants.find((variant) => variant.id === id)!.median.p99Ms;
  return round(p99(of) / Math.max(1, p99('a')));
}

export function evaluateTargets(input: TargetInput): Target[] {
  const { ratios, list, bootstrap, heap } = input;
  const targets: Target[] = [];
  const add = (target: Omit<Target, 'pass'>) =>
    targets.push({ ...target, pass: check(target.value, target.comparison, target.threshold) });
  const capacity = (id: string, description: string, ratio: Ratio, threshold: number) =>
    add({
      id,
      description,
      value: ratio.capacity,
      comparison: '>=',
      threshold,
      unit: 'x (CPU)',
      requestsPerSecondValue: ratio.requestsPerSecond,
    });
  for (const [wire, year] of [
    ['2026-07-28', '2026'],
    ['2025-11-25', '2025'],
  ] as const) {
    capacity(
      `call-vs-raw-sdk-${wire}`,
      `tools/call (${wire}) >= ${CALL_TARGETS.rawSdk} x raw SDK (b)`,
      ratios[`oursToRawSdk${year}`],
      CALL_TARGETS.rawSdk,
    );
    capacity(
      `call-vs-mcp-nest-${wire}`,
      `tools/call (${wire}) >= ${CALL_TARGETS.mcpNest} x MCP-Nest (h)`,
      ratios[`oursToMcpNest${year}`],
      CALL_TARGETS.mcpNest,
    );
    capacity(
      `call-vs-ceiling-${wire}`,
      `tools/call (${wire}) >= ${CALL_TARGETS.ceiling} x plain route (a)`,
      ratios[`oursToCeiling${year}`],
      CALL_TARGETS.ceiling,
    );
    add({
      id: `p99-vs-ceiling-${wire}`,
      description: `tools/call (${wire}) p99 <= ${P99_TARGET} x plain route's`,
      value: p99Ratio(input.variants, `c-${year}`),
      comparison: '<=',
      threshold: P99_TARGET,
      unit: 'x (p99 ms)',
    });
  }
  capacity(
    'list-100-vs-call',
    `tools/list, 100 tools >= ${LIST_100_TARGET} x tools/call`,
    ratios.list100ToCall,
    LIST_100_TARGET,
  );
  add({
    id: 'list-growth',
    description: 'tools/list cost growth 10 -> 1,000 tools <= bytes growth',
    value: list.costGrowth10To1000,
    comparison: '<=',
    threshold: list.bytesGrowth10To1000,
    unit: 'x',
  });
  add({
    id: 'bootstrap',
    description: `bootstrap with ${bootstrap.tools} tools adds < 1 s`,
    value: bootstrap.delta.bootMs,
    comparison: '<',
    threshold: 1000,
    unit: 'ms',
  });
  add({
    id: 'heap-growth',
    description: `heap growth over ${heap.calls.toLocaleString('en')} calls < 20 MB`,
    value: heap.growthMB,
    comparison: '<',
    threshold: 20,
    unit: 'MB',
    ...(heap.calls < 100_000 && {
      note: `short mode: ${heap.calls.toLocaleString('en')} calls, not 100,000 (npm run bench:long runs 100,000)`,
    }),
  });
  return targets;
}
