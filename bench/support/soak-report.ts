import type { SoakSample } from './soak-ipc.js';
import type { SoakCounts } from './soak-tally.js';

// The soak's targets (issue 33): heap after GC grows less than 10 MB from the first tenth
// of the samples to the last; file descriptors and active handles return to their
// starting count once the load stopped and the driver closed its connections; no answer
// other than the one the mix asked for.

export const HEAP_GROWTH_LIMIT_MB = 10;
const MB = 2 ** 20;

export interface SoakTarget {
  name: string;
  value: string;
  limit: string;
  pass: boolean;
}

export interface SoakMarks {
  /** After the probe, its connections closed, before the load: the starting counts. */
  start: SoakSample;
  /** When the warm-up ended: the first sample of the growth check. */
  warmedUp: SoakSample;
  /** When the last request was answered, the driver's connections still open. */
  loadEnd: SoakSample;
  /** After the driver closed its connections and the server settled. */
  settled: SoakSample;
}

/** The samples of the measured load, in order: the warm-up's end, every 10 s, the end. */
export function measuredSamples(samples: readonly SoakSample[], marks: SoakMarks): SoakSample[] {
  return samples.filter(
    (sample) =>
      sample === marks.warmedUp ||
      sample === marks.loadEnd ||
      (sample.kind === 'periodic' &&
        sample.atS > marks.warmedUp.atS &&
        sample.atS < marks.loadEnd.atS),
  );
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Mean heap after GC of the first and of the last tenth of the samples (one at least). */
export function heapGrowth(samples: readonly SoakSample[]) {
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  const first = mean(samples.slice(0, tenth).map((sample) => sample.heapUsed));
  const last = mean(samples.slice(-tenth).map((sample) => sample.heapUsed));
  return {
    samples: samples.length,
    tenth,
    firstMB: first / MB,
    lastMB: last / MB,
    growthMB: (last - first) / MB,
  };
}

export interface CancelCounters {
  slowStarted: number;
  slowAborted: number;
  slowFinished: number;
  tasksRun: number;
  tasksCreated: number;
}

export function evaluateSoak(
  samples: readonly SoakSample[],
  marks: SoakMarks,
  counts: SoakCounts,
  counters: CancelCounters,
): { targets: SoakTarget[]; growth: ReturnType<typeof heapGrowth> } {
  const growth = heapGrowth(measuredSamples(samples, marks));
  const failures = Object.values(counts.failures).reduce((sum, failure) => sum + failure.count, 0);
  const { start, settled } = marks;
  const changedKinds = Object.entries(settled.handleKinds)
    .filter(([kind, count]) => count !== (start.handleKinds[kind] ?? 0))
    .map(([kind, count]) => `${kind} ${start.handleKinds[kind] ?? 0}→${count}`);
  const targets: SoakTarget[] = [
    {
      name: `heap after GC, first → last tenth (${growth.tenth} of ${growth.samples} samples)`,
      value: `${growth.firstMB.toFixed(2)} → ${growth.lastMB.toFixed(2)} MB (${growth.growthMB >= 0 ? '+' : ''}${growth.growthMB.toFixed(2)} MB)`,
      limit: `< +${HEAP_GROWTH_LIMIT_MB} MB`,
      pass: growth.growthMB < HEAP_GROWTH_LIMIT_MB,
    },
    {
      name: 'open file descriptors, start → settled',
      value: `${start.fds} → ${settled.fds} (${marks.loadEnd.fds} at the end of the load)`,
      limit: `≤ ${start.fds}`,
      pass: settled.fds <= start.fds,
    },
    {
      name: 'active handles, start → settled',
      value: `${start.handles} → ${settled.handles}${changedKinds.length ? ` (${changedKinds.join(', ')})` : ''}`,
      limit: `≤ ${start.handles}`,
      pass: settled.handles <= start.handles,
    },
    {
      name: 'unexpected answers (status, JSON-RPC error, isError, reset, timeout)',
      value: String(failures),
      limit: '0',
      pass: failures === 0,
    },
    {
      name: 'cancelled calls that reached the tool: started = aborted, none finished',
      value: `${counters.slowStarted} started, ${counters.slowAborted} aborted, ${counters.slowFinished} finished`,
      limit: 'started = aborted, 0 finished',
      pass: counters.slowStarted === counters.slowAborted && counters.slowFinished === 0,
    },
    {
      name: 'tasks run to completion = tasks created',
      value: `${counters.tasksRun} of ${counters.tasksCreated}`,
      limit: 'equal',
      pass: counters.tasksRun === counters.tasksCreated,
    },
  ];
  return { targets, growth };
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

/** The samples as a table: one line each, marks named. */
export function sampleLines(samples: readonly SoakSample[]): string[] {
  const lines = [
    `${pad('t (s)', 7)} ${pad('requests', 9)} ${pad('heap MB', 8)} ${pad('RSS MB', 7)} ${pad('fds', 5)} ${pad('handles', 7)} ${pad('ELD p99', 8)} ${pad('max ms', 7)}  mark`,
  ];
  for (const sample of samples) {
    lines.push(
      `${pad(sample.atS.toFixed(0), 7)} ${pad(sample.requests, 9)} ${pad((sample.heapUsed / MB).toFixed(2), 8)} ${pad((sample.rss / MB).toFixed(0), 7)} ${pad(sample.fds, 5)} ${pad(sample.handles, 7)} ${pad(sample.eventLoopP99Ms.toFixed(1), 8)} ${pad(sample.eventLoopMaxMs.toFixed(0), 7)}  ${sample.label ?? ''}`,
    );
  }
  return lines;
}

export function countLines(counts: SoakCounts): string[] {
  const lines = Object.entries(counts.answers).map(
    ([kind, count]) => `  ${pad(count, 9)}  ${kind}`,
  );
  for (const [kind, failure] of Object.entries(counts.failures)) {
    lines.push(`  ${pad(failure.count, 9)}  UNEXPECTED ${kind}`);
    for (const sample of failure.samples) lines.push(`             e.g. ${sample}`);
  }
  return lines;
}

export function targetLines(targets: readonly SoakTarget[]): string[] {
  return targets.map(
    (target) =>
      `  ${target.pass ? 'PASS' : 'FAIL'}  ${target.name}: ${target.value} (target ${target.limit})`,
  );
}
