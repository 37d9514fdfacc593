import type { BenchMode } from '../bench.config.js';
import { kibPerRequest, plainRouteLines, type PlainRouteAllocations } from './allocation-run.js';
import type { LoadResult } from './load.js';
import type { machineInfo } from './machine.js';
import { median, megabytes, round } from './stats.js';
import { evaluateTargets, p99Ratio } from './targets.js';
import { telemetryLines, type TelemetrySection } from './telemetry-report.js';

export interface RoundSample extends LoadResult {
  /** Server CPU time (user + system) per request it received, in ms. */
  cpuMsPerRequest: number;
  serverRequests: number;
}

export interface VariantReport {
  id: string;
  label: string;
  rounds: RoundSample[];
  /** Medians across rounds. */
  median: { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuMsPerRequest: number };
  failedRequests: number;
}

export interface BootstrapSample {
  mcp: boolean;
  bootMs: number;
  sinceProcessStartMs: number;
  rss: number;
  heapUsed: number;
}

export interface HeapSample {
  calls: number;
  heapUsed: number;
  rss: number;
}

/** A comparison of two variants: above 1 means (c) does better, for `capacity` too. */
export interface Ratio {
  of: string;
  to: string;
  /** requests/s of `of` ÷ requests/s of `to`. */
  requestsPerSecond: number;
  /** CPU ms per request of `of` ÷ that of `to` (below 1: `of` is cheaper). */
  cpuPerRequest: number;
  /** The throughput ratio CPU time implies: CPU of `to` ÷ CPU of `of`. */
  capacity: number;
}

export interface Target {
  id: string;
  description: string;
  /** The measured figure the target is judged on. */
  value: number;
  comparison: '>=' | '<=' | '<';
  threshold: number;
  unit: string;
  pass: boolean;
  /** The same comparison on requests/s, shown for information. */
  requestsPerSecondValue?: number;
  note?: string;
}

interface ReportInput {
  mode: string;
  settings: BenchMode;
  date: string;
  durationS: number;
  machine: ReturnType<typeof machineInfo> & { loadAverageAtEnd: number[] };
  sameSchema: boolean;
  variants: VariantReport[];
  /** tools/list response size in bytes, by tool count. */
  listBytes: Record<number, number>;
  bootstrap: BootstrapSample[];
  heap: HeapSample[];
  /** KiB allocated per call by ours and by the plain route (support/allocation-run.ts). */
  allocations: PlainRouteAllocations;
  /** The telemetry experiment (g), evaluated by telemetry-report.ts. */
  telemetry: TelemetrySection;
}

export type Report = ReturnType<typeof evaluate>;

function ratio(variants: VariantReport[], of: string, to: string): Ratio {
  const find = (id: string) => variants.find((variant) => variant.id === id)!.median;
  const a = find(of);
  const b = find(to);
  return {
    of,
    to,
    requestsPerSecond: round(a.requestsPerSecond / b.requestsPerSecond),
    cpuPerRequest: round(a.cpuMsPerRequest / b.cpuMsPerRequest),
    capacity: round(b.cpuMsPerRequest / a.cpuMsPerRequest),
  };
}

/** Ratios, list growth, bootstrap and heap deltas, and the targets (targets.ts). */
export function evaluate(input: ReportInput) {
  const { variants } = input;
  const ratios = {
    oursToRawSdk2026: ratio(variants, 'c-2026', 'b-2026'),
    oursToRawSdk2025: ratio(variants, 'c-2025', 'b-2025'),
    oursToCeiling2026: ratio(variants, 'c-2026', 'a'),
    oursToCeiling2025: ratio(variants, 'c-2025', 'a'),
    oursToMcpNest2026: ratio(variants, 'c-2026', 'h-2026'),
    oursToMcpNest2025: ratio(variants, 'c-2025', 'h-2025'),
    leanToSdkPath2026: ratio(variants, 'c-2026', 'i-2026'),
    leanToSdkPath2025: ratio(variants, 'c-2025', 'i-2025'),
    rawSdkToCeiling2026: ratio(variants, 'b-2026', 'a'),
    rawSdkToCeiling2025: ratio(variants, 'b-2025', 'a'),
    mcpNestToCeiling2026: ratio(variants, 'h-2026', 'a'),
    mcpNestToCeiling2025: ratio(variants, 'h-2025', 'a'),
    mcpNestToRawSdk2026: ratio(variants, 'h-2026', 'b-2026'),
    mcpNestToRawSdk2025: ratio(variants, 'h-2025', 'b-2025'),
    list100ToCall: ratio(variants, 'd-list-100', 'c-2026'),
    list100ToMcpNest: ratio(variants, 'd-list-100', 'h-list-100'),
    list100LeanToSdkPath: ratio(variants, 'd-list-100', 'i-list-100'),
    list10ToCall: ratio(variants, 'd-list-10', 'c-2026'),
    list1000ToCall: ratio(variants, 'd-list-1000', 'c-2026'),
  };

  const cpuOf = (id: string) =>
    variants.find((variant) => variant.id === id)!.median.cpuMsPerRequest;
  const listCost = Object.fromEntries(
    [10, 100, 1000].map((tools) => [
      tools,
      { bytes: input.listBytes[tools]!, cpuMsPerRequest: round(cpuOf(`d-list-${tools}`), 4) },
    ]),
  );
  const list = {
    byTools: listCost,
    costGrowth10To1000: round(listCost[1000]!.cpuMsPerRequest / listCost[10]!.cpuMsPerRequest, 2),
    bytesGrowth10To1000: round(listCost[1000]!.bytes / listCost[10]!.bytes, 2),
    /** Extra CPU per extra KB listed, between 10 and 1,000 tools. */
    marginalCpuUsPerKb: round(
      ((listCost[1000]!.cpuMsPerRequest - listCost[10]!.cpuMsPerRequest) * 1000) /
        ((listCost[1000]!.bytes - listCost[10]!.bytes) / 1024),
      2,
    ),
  };

  const bootstrapOf = (mcp: boolean) => {
    const samples = input.bootstrap.filter((sample) => sample.mcp === mcp);
    return {
      bootMs: round(median(samples.map((s) => s.bootMs)), 1),
      sinceProcessStartMs: round(median(samples.map((s) => s.sinceProcessStartMs)), 1),
      rssMB: megabytes(median(samples.map((s) => s.rss))),
      heapUsedMB: megabytes(median(samples.map((s) => s.heapUsed))),
    };
  };
  const withMcp = bootstrapOf(true);
  const withoutMcp = bootstrapOf(false);
  const bootstrap = {
    tools: input.settings.bootstrapTools,
    repetitions: input.settings.bootstrapRepetitions,
    withMcp,
    withoutMcp,
    delta: {
      bootMs: round(withMcp.bootMs - withoutMcp.bootMs, 1),
      rssMB: round(withMcp.rssMB - withoutMcp.rssMB, 2),
      heapUsedMB: round(withMcp.heapUsedMB - withoutMcp.heapUsedMB, 2),
    },
    samples: input.bootstrap,
  };

  const first = input.heap[0]!;
  const last = input.heap.at(-1)!;
  const heap = {
    calls: last.calls,
    warmupCalls: input.settings.heapWarmupCalls,
    heapUsedAfterWarmupMB: megabytes(first.heapUsed),
    heapUsedAfterCallsMB: megabytes(last.heapUsed),
    growthMB: megabytes(last.heapUsed - first.heapUsed),
    rssGrowthMB: megabytes(last.rss - first.rss),
    samples: input.heap,
  };

  const p99ToCeiling = Object.fromEntries(
    ['c-2026', 'c-2025', 'b-2026', 'b-2025', 'h-2026', 'h-2025', 'i-2026', 'i-2025'].map((id) => [
      id,
      p99Ratio(variants, id),
    ]),
  );
  const { readings, ...allocationRatios } = input.allocations;
  const allocations = {
    ...allocationRatios,
    kibByGroup: Object.fromEntries(
      Object.entries(readings).map(([id, reading]) => [
        id,
        Object.fromEntries(
          Object.keys(reading.bytesByGroup).map((group) => [
            group,
            round(kibPerRequest(reading, group), 2),
          ]),
        ),
      ]),
    ),
  };
  const targets: Target[] = evaluateTargets({
    variants,
    ratios,
    list,
    bootstrap,
    heap,
    allocations,
  });
  targets.push(...input.telemetry.targets);

  return {
    mode: input.mode,
    date: input.date,
    durationS: round(input.durationS, 1),
    machine: input.machine,
    settings: input.settings,
    sameSchema: input.sameSchema,
    variants: input.variants,
    ratios,
    p99ToCeiling,
    list,
    bootstrap,
    heap,
    allocations,
    telemetry: input.telemetry,
    targets,
  };
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

/** The report as text tables on stdout. */
export function printReport(report: Report, allocationReadings?: PlainRouteAllocations): void {
  const out: string[] = [];
  const { machine } = report;
  out.push(
    '',
    `nestjs-mcp bench (${report.mode} mode), ${report.date}`,
    `nestjs-mcp at ${machine.library.commit}${machine.library.libDirty === true ? ' + uncommitted lib/ changes' : ''}; ${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} -> ${machine.loadAverageAtEnd.join(' ')}`,
    `${report.settings.rounds} interleaved rounds x ${report.settings.durationS} s, each after ${report.settings.warmupS} s warm-up (and ${report.settings.primeS} s once per variant first), ${report.settings.connections} connections; medians across rounds`,
    '',
  );
  out.push(...variantTable(report.variants));

  out.push('', 'ratios (above 1: the first does better)     req/s    CPU/req   capacity (CPU)');
  const ratioLine = (name: string, r: Ratio) =>
    out.push(
      `  ${name.padEnd(40)} ${fixed(r.requestsPerSecond, 2).padStart(6)} ${fixed(r.cpuPerRequest, 2).padStart(10)} ${fixed(r.capacity, 2).padStart(10)}`,
    );
  const r = report.ratios;
  ratioLine('(c)/(b) ours / raw SDK, 2026-07-28', r.oursToRawSdk2026);
  ratioLine('(c)/(b) ours / raw SDK, 2025-11-25', r.oursToRawSdk2025);
  ratioLine('(c)/(h) ours / MCP-Nest, 2026-07-28', r.oursToMcpNest2026);
  ratioLine('(c)/(h) ours / MCP-Nest, 2025-11-25', r.oursToMcpNest2025);
  ratioLine('(c)/(a) ours / plain route, 2026-07-28', r.oursToCeiling2026);
  ratioLine('(c)/(a) ours / plain route, 2025-11-25', r.oursToCeiling2025);
  ratioLine('(c)/(i) lean path / SDK path, 2026', r.leanToSdkPath2026);
  ratioLine('(c)/(i) lean path / SDK path, 2025', r.leanToSdkPath2025);
  ratioLine('(b)/(a) raw SDK / plain route, 2026', r.rawSdkToCeiling2026);
  ratioLine('(b)/(a) raw SDK / plain route, 2025', r.rawSdkToCeiling2025);
  ratioLine('(h)/(a) MCP-Nest / plain route, 2026', r.mcpNestToCeiling2026);
  ratioLine('(h)/(a) MCP-Nest / plain route, 2025', r.mcpNestToCeiling2025);
  ratioLine('(h)/(b) MCP-Nest / raw SDK, 2026', r.mcpNestToRawSdk2026);
  ratioLine('(h)/(b) MCP-Nest / raw SDK, 2025', r.mcpNestToRawSdk2025);
  ratioLine('list/call, 10 tools', r.list10ToCall);
  ratioLine('list/call, 100 tools', r.list100ToCall);
  ratioLine('list/call, 1,000 tools', r.list1000ToCall);
  ratioLine('list 100: ours / MCP-Nest (h)', r.list100ToMcpNest);
  ratioLine('list 100: lean path / SDK path (i)', r.list100LeanToSdkPath);
  out.push('  (CPU/req below 1 and capacity above 1 mean the first is cheaper per request)');

  const { list, bootstrap, heap } = report;
  out.push(
    '',
    `p99 latency / plain route's (a, ${report.variants.find((v) => v.id === 'a')!.median.p99Ms} ms): ` +
      Object.entries(report.p99ToCeiling)
        .map(([id, value]) => `${id} ${fixed(value, 2)}`)
        .join(', '),
    '',
    'tools/list cost against bytes sent',
    ...[10, 100, 1000].map(
      (tools) =>
        `  ${String(tools).padStart(5)} tools: ${String(list.byTools[tools]!.bytes).padStart(8)} bytes, ${fixed(list.byTools[tools]!.cpuMsPerRequest, 3)} CPU ms/req`,
    ),
    `  10 -> 1,000 tools: cost x${list.costGrowth10To1000}, bytes x${list.bytesGrowth10To1000}; ${list.marginalCpuUsPerKb} CPU us per extra KB`,
    '',
    `bootstrap, ${bootstrap.tools} tools (median of ${bootstrap.repetitions} fresh processes each)`,
    `  without McpModule: ${bootstrap.withoutMcp.bootMs} ms to listen, RSS ${bootstrap.withoutMcp.rssMB} MB, heap ${bootstrap.withoutMcp.heapUsedMB} MB`,
    `  with McpModule:    ${bootstrap.withMcp.bootMs} ms to listen, RSS ${bootstrap.withMcp.rssMB} MB, heap ${bootstrap.withMcp.heapUsedMB} MB`,
    `  McpModule adds:    ${bootstrap.delta.bootMs} ms, RSS ${bootstrap.delta.rssMB} MB, heap ${bootstrap.delta.heapUsedMB} MB`,
    '',
    `heap after GC: ${heap.heapUsedAfterWarmupMB} MB after ${heap.warmupCalls} warm-up calls, ${heap.heapUsedAfterCallsMB} MB after ${heap.calls} more calls (both wires): ${heap.growthMB >= 0 ? '+' : ''}${heap.growthMB} MB (RSS ${heap.rssGrowthMB >= 0 ? '+' : ''}${heap.rssGrowthMB} MB)`,
    '',
  );
  if (allocationReadings) out.push(...plainRouteLines(allocationReadings), '');
  out.push(...telemetryLines(report.telemetry), '');
  out.push('targets (judged on server CPU time per request; req/s ratio shown for information)');
  out.push(...targetLines(report.targets));
  if (!report.sameSchema) out.push('  WARNING: the servers list different input schemas');
  out.push('');
  process.stdout.write(out.join('\n') + '\n');
}

/** The table of variants: medians across rounds, and CPU per request of every round. */
export function variantTable(variants: readonly VariantReport[]): string[] {
  const out: string[] = [];
  const header = [
    'variant'.padEnd(36),
    'req/s'.padStart(7),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'CPU ms/req'.padStart(11),
    '  CPU ms/req per round',
  ].join(' ');
  out.push(header, '-'.repeat(header.length + 6));
  for (const variant of variants) {
    out.push(
      [
        variant.label.padEnd(36),
        fixed(variant.median.requestsPerSecond, 0).padStart(7),
        fixed(variant.median.p50Ms, 0).padStart(7),
        fixed(variant.median.p99Ms, 0).padStart(7),
        fixed(variant.median.cpuMsPerRequest, 3).padStart(11),
        '  ' + variant.rounds.map((r) => fixed(r.cpuMsPerRequest, 3)).join(' '),
        variant.failedRequests > 0 ? `  (${variant.failedRequests} failed requests)` : '',
      ].join(' '),
    );
  }
  return out;
}

/** One line per target: PASS or MISS, the figure, the line it is judged against. */
export function targetLines(targets: readonly Target[]): string[] {
  const out: string[] = [];
  for (const target of targets) {
    const rps =
      target.requestsPerSecondValue === undefined
        ? ''
        : `  [req/s: ${fixed(target.requestsPerSecondValue, 2)}]`;
    out.push(
      `  ${target.pass ? 'PASS' : 'MISS'}  ${target.description.padEnd(56)} ${fixed(target.value, target.threshold > 1 && target.unit === 'x (CPU)' ? 3 : 2)} ${target.comparison} ${target.threshold} ${target.unit}${rps}${target.note ? `  (${target.note})` : ''}`,
    );
  }
  return out;
}
