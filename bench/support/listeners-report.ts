import type {
  ListenersScenario,
  LoopDelayReading,
  OpenReading,
  ServerMemory,
} from './listeners-ipc.js';

/** Issue 33's targets for idle listeners, against the plain `@Sse()` route of the same run. */
export const LISTENER_TARGETS = {
  /** Memory per stream (RSS and heap after GC) at most this many times the plain route's. */
  memoryRatio: 2,
  /** Time for one change to reach every stream at most this many times the plain route's. */
  broadcastRatio: 2,
  /** Event-loop delay p99 while the streams are idle, in ms. */
  idleLoopDelayP99Ms: 20,
} as const;

export interface BroadcastRound {
  /** From the server's trigger to the last stream's arrival. */
  lastMs: number;
  /** From the trigger to the median stream's arrival. */
  medianMs: number;
  /**
   * The server's CPU time (user + system) from the trigger to the last arrival: what the
   * broadcast cost it, less sensitive than the wall time to what else the machine runs.
   */
  serverCpuMs: number;
  received: number;
  dropped: number;
}

export interface ScenarioResult {
  scenario: ListenersScenario;
  open: OpenReading;
  before: ServerMemory;
  after: ServerMemory;
  perStream: ReturnType<typeof perStreamOf>;
  idle: LoopDelayReading;
  rounds: BroadcastRound[];
  /** The median of the rounds' `lastMs`. */
  broadcastMs: number;
  /** The median of the rounds' `serverCpuMs`. */
  broadcastCpuMs: number;
}

export interface TargetVerdict {
  target: string;
  figure: number;
  ceiling: number;
  pass: boolean;
}

export const SCENARIO_TITLES: Record<ListenersScenario, string> = {
  plain: 'plain Nest @Sse() route (ceiling)',
  'listen-2026': 'ours, 2026-07-28 subscriptions/listen',
  'sessions-2025': 'ours, 2025 sessions with their GET stream',
};

export function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function perStreamOf(before: ServerMemory, after: ServerMemory, streams: number) {
  const per = (key: 'rss' | 'heapUsed' | 'heapTotal' | 'external') =>
    (after[key] - before[key]) / streams;
  return {
    rssBytes: per('rss'),
    heapUsedBytes: per('heapUsed'),
    heapTotalBytes: per('heapTotal'),
    externalBytes: per('external'),
  };
}

const ratio = (figure: number, of: number) => figure / of;

/** Each scenario of ours against the plain route, and every scenario's idle delay. */
export function evaluateListeners(results: ScenarioResult[]): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const plain = results.find((result) => result.scenario === 'plain');
  for (const result of results) {
    const name = result.scenario;
    if (plain && name !== 'plain') {
      verdicts.push(
        {
          target: `${name}: heap per stream ≤ ${LISTENER_TARGETS.memoryRatio} × plain`,
          figure: ratio(result.perStream.heapUsedBytes, plain.perStream.heapUsedBytes),
          ceiling: LISTENER_TARGETS.memoryRatio,
          pass: false,
        },
        {
          target: `${name}: RSS per stream ≤ ${LISTENER_TARGETS.memoryRatio} × plain`,
          figure: ratio(result.perStream.rssBytes, plain.perStream.rssBytes),
          ceiling: LISTENER_TARGETS.memoryRatio,
          pass: false,
        },
        {
          target: `${name}: broadcast to all ≤ ${LISTENER_TARGETS.broadcastRatio} × plain`,
          figure: ratio(result.broadcastMs, plain.broadcastMs),
          ceiling: LISTENER_TARGETS.broadcastRatio,
          pass: false,
        },
      );
    }
    verdicts.push({
      target: `${name}: idle event-loop delay p99 ≤ ${LISTENER_TARGETS.idleLoopDelayP99Ms} ms`,
      figure: result.idle.p99Ms,
      ceiling: LISTENER_TARGETS.idleLoopDelayP99Ms,
      pass: false,
    });
  }
  return verdicts.map((verdict) => ({ ...verdict, pass: verdict.figure <= verdict.ceiling }));
}

const kib = (bytes: number) => (bytes / 1024).toFixed(2);
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);
const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** The figures as a Markdown table, then the targets. */
export function listenersTable(results: ScenarioResult[], verdicts: TargetVerdict[]): string {
  const lines = [
    '| Scenario | Streams open (failed) | Open in s | RSS before → after (MiB) | Heap before → after (MiB) | KiB per stream: RSS / heap used / heap total / external | Idle loop delay p50 / p99 / max, 10 ms samples (p99, 1 ms samples) | Idle server CPU (ms/s) | Broadcast to all, median of rounds (ms) | Rounds: last arrival (ms) | Server CPU per broadcast, median (ms) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const result of results) {
    const { open, before, after, perStream, idle, rounds } = result;
    lines.push(
      `| ${SCENARIO_TITLES[result.scenario]} | ${open.opened} (${open.failed}) | ` +
        `${fixed(open.ms / 1000)} | ${mib(before.rss)} → ${mib(after.rss)} | ` +
        `${mib(before.heapUsed)} → ${mib(after.heapUsed)} | ` +
        `${kib(perStream.rssBytes)} / ${kib(perStream.heapUsedBytes)} / ${kib(perStream.heapTotalBytes)} / ` +
        `${kib(perStream.externalBytes)} | ` +
        `${fixed(idle.p50Ms)} / ${fixed(idle.p99Ms)} / ${fixed(idle.maxMs)} (${fixed(idle.fineP99Ms)}) | ` +
        `${fixed(idle.cpuMsPerSecond)} | ` +
        `${fixed(result.broadcastMs)} | ${rounds.map((round) => fixed(round.lastMs, 0)).join(', ')} | ` +
        `${fixed(result.broadcastCpuMs)} |`,
    );
  }
  lines.push('', '| Target (issue 33) | Figure | Ceiling | Verdict |', '| --- | --- | --- | --- |');
  for (const verdict of verdicts) {
    lines.push(
      `| ${verdict.target} | ${fixed(verdict.figure, 2)} | ${verdict.ceiling} | ${verdict.pass ? 'PASS' : 'MISS'} |`,
    );
  }
  return lines.join('\n');
}
