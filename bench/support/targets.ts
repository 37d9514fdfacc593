import type { Ratio, Target, VariantReport } from './report.js';
import { round } from './stats.js';

// The targets, judged on the medians of one run. A CPU target is judged on capacity (the
// throughput ratio the CPU per request implies), with the requests/s ratio beside it for
// information. Issue 28 (the fast path) set the request-path ones; issue 7's list growth,
// bootstrap and heap targets still hold. Issue 19's list/call ratio is reported, not judged.

/** Issue 28: `tools/call` against each peer, on each wire (issue 19 had 1.5, 1.5 and 0.6). */
export const CALL_TARGETS = { rawSdk: 2.0, mcpNest: 2.0, ceiling: 0.65 } as const;
/** Issue 28: `tools/list` with 100 tools against MCP-Nest's 100-tool list. */
export const LIST_100_VS_MCP_NEST_TARGET = 3.0;
/** Issues 19 and 28: p99 latency of a call at most this many times the plain route's. */
export const P99_TARGET = 1.5;
/** Issue 28: KiB allocated per call at most this many times the plain route's. */
export const ALLOCATION_TARGET = 1.5;

export interface TargetInput {
  variants: readonly VariantReport[];
  ratios: Record<
    | 'oursToRawSdk2026'
    | 'oursToRawSdk2025'
    | 'oursToMcpNest2026'
    | 'oursToMcpNest2025'
    | 'oursToCeiling2026'
    | 'oursToCeiling2025'
    | 'list100ToMcpNest',
    Ratio
  >;
  /** KiB allocated per call, ours ÷ the plain route (support/allocation-run.ts). */
  allocations: { calls: number; oursToPlain2026: number; oursToPlain2025: number };
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
  const { ratios, list, bootstrap, heap, allocations } = input;
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
    add({
      id: `allocations-vs-ceiling-${wire}`,
      description: `tools/call (${wire}) KiB allocated <= ${ALLOCATION_TARGET} x plain route's`,
      value: allocations[`oursToPlain${year}`],
      comparison: '<=',
      threshold: ALLOCATION_TARGET,
      unit: 'x (KiB/req)',
      note: `${allocations.calls.toLocaleString('en')} calls sampled`,
    });
  }
  capacity(
    'list-100-vs-mcp-nest',
    `tools/list, 100 tools >= ${LIST_100_VS_MCP_NEST_TARGET} x MCP-Nest's (h)`,
    ratios.list100ToMcpNest,
    LIST_100_VS_MCP_NEST_TARGET,
  );
  // Issue 7.
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
