import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { log } from './support/log.js';
import { machineInfo } from './support/machine.js';
import type { SoakSample } from './support/soak-ipc.js';
import { SoakHttp } from './support/soak-http.js';
import { OPERATIONS, SoakMix } from './support/soak-mix.js';
import type { SoakClient } from './support/soak-steps.js';
import {
  countLines,
  evaluateSoak,
  measuredSamples,
  sampleLines,
  targetLines,
  type SoakMarks,
} from './support/soak-report.js';
import { SoakServerHandle } from './support/soak-server-handle.js';
import { SoakPacer, SoakTally } from './support/soak-tally.js';

// The soak (issue 33): a million requests of a realistic mix over both wires at a steady
// rate against one server process (bench/apps/soak.app.ts), sampled every 10 s; exits 1
// when a target fails. `node dist-bench/soak.js [--requests N] [--rate R] [--clients C]
// [--warmup W] [--only names] [--out file]`; `npm run soak`, and `npm run soak:ci`
// (50,000) in .ci/run.

const DEFAULT_REQUESTS = 1_000_000;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} takes a positive number`);
  return value;
}

const requests = option('--requests', DEFAULT_REQUESTS);
// 1,000 requests/s: about half of what the mix reaches on the 2-core machine with nothing
// else running (1,900/s), so that the rate holds, with headroom, all along.
const rate = option('--rate', 1_000);
const clients = option('--clients', 48);
// The warm-up (the same load, before the first sample of the growth check): 5% of the
// requests, at least 10,000, so that caches, JIT and pools have filled.
const warmup = option('--warmup', Math.max(10_000, Math.round(requests * 0.05)));
const onlyIndex = process.argv.indexOf('--only');
// `--only session,modern task`: those operations alone (to see what one of them costs).
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1]!.split(',') : undefined;
const mix = new SoakMix(
  only ? OPERATIONS.filter((entry) => only.includes(entry.name)) : OPERATIONS,
);
const outIndex = process.argv.indexOf('--out');
const outFile =
  outIndex >= 0
    ? process.argv[outIndex + 1]!
    : requests === DEFAULT_REQUESTS
      ? new URL('../bench/soak-results.json', import.meta.url).pathname
      : new URL(`./soak-${requests}-results.json`, import.meta.url).pathname;

/** A seeded generator, so that every run sends the same mix. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function clientsOf(
  http: SoakHttp,
  tally: SoakTally,
  pacer: SoakPacer,
  count: number,
): SoakClient[] {
  return Array.from({ length: count }, (_, index) => {
    let id = 0;
    return {
      http,
      tally,
      pacer,
      token: `client-${index}`,
      random: mulberry32(index + 1),
      nextId: () => (id += 1),
    };
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Marks samples until descriptors and handles are back to the start (15 s at most). */
async function settle(server: SoakServerHandle, start: SoakSample): Promise<SoakSample> {
  let sample = await server.mark('settled');
  for (
    let waited = 0;
    waited < 15 && (sample.fds > start.fds || sample.handles > start.handles);
    waited += 1
  ) {
    await pause(1_000);
    sample = await server.mark('settled');
  }
  return sample;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const machine = machineInfo();
  log(
    `soak: ${requests} requests (after ${warmup} of warm-up) at ${rate}/s, ${clients} clients; ` +
      `${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
  );
  const server = await SoakServerHandle.start((sample) =>
    log(
      `  ${sample.requests} requests, heap ${(sample.heapUsed / 2 ** 20).toFixed(1)} MB, ` +
        `${sample.fds} fds, ${sample.handles} handles, ELD p99 ${sample.eventLoopP99Ms.toFixed(1)} ms`,
    ),
  );
  try {
    // The probe: every operation once, on connections closed before the starting counts.
    const probeTally = new SoakTally();
    const probeHttp = new SoakHttp(server.port, 8);
    await mix.runEach(clientsOf(probeHttp, probeTally, new SoakPacer(rate), 1)[0]!);
    probeHttp.close();
    await pause(1_000);
    const start = await server.mark('start');

    const tally = new SoakTally();
    const http = new SoakHttp(server.port, clients * 2 + 8);
    const pacer = new SoakPacer(rate);
    const total = warmup + requests;
    let warmedUp: Promise<SoakSample> | undefined;
    const watch = setInterval(() => {
      if (!warmedUp && tally.requests >= warmup) warmedUp = server.mark('warmed up');
    }, 100);
    const loadStarted = performance.now();
    await Promise.all(
      clientsOf(http, tally, pacer, clients).map(async (client) => {
        while (tally.requests < total) await mix.runOne(client);
      }),
    );
    const loadS = (performance.now() - loadStarted) / 1000;
    clearInterval(watch);
    const loadEnd = await server.mark('load end');
    http.close();
    await pause(500);
    const marks: SoakMarks = {
      start,
      warmedUp: await (warmedUp ?? server.mark('warmed up')),
      loadEnd,
      settled: await settle(server, start),
    };

    const counts = tally.snapshot();
    for (const [kind, failure] of Object.entries(probeTally.snapshot().failures)) {
      counts.failures[`probe: ${kind}`] = failure;
    }
    const created = (kind: string) =>
      (counts.answers[kind] ?? 0) + (probeTally.snapshot().answers[kind] ?? 0);
    const counters = {
      ...marks.settled.counters,
      tasksCreated: created('modern task created') + created('legacy task created'),
    };
    const { targets, growth } = evaluateSoak(server.samples, marks, counts, counters);
    const pass = targets.every((target) => target.pass);
    const shown = server.samples.filter((sample) => sample.atS >= start.atS);
    process.stdout.write(
      [
        '',
        `Soak: ${counts.requests} requests in ${loadS.toFixed(0)} s (${(counts.requests / loadS).toFixed(0)}/s; ` +
          `target ${rate}/s, fell behind ${pacer.fellBehind} times), ${probeTally.requests} in the probe`,
        '',
        'Samples (heap after GC; ELD: event-loop delay since the previous sample):',
        ...sampleLines(shown),
        '',
        'Answers by kind:',
        ...countLines(counts),
        '',
        `Targets (heap: ${growth.samples} samples from the end of the warm-up to the end of the load):`,
        ...targetLines(targets),
        '',
        pass ? 'soak: PASS' : 'soak: FAIL',
        '',
      ].join('\n'),
    );
    writeFileSync(
      outFile,
      `${JSON.stringify(
        {
          date: startedAt.toISOString(),
          settings: { requests, warmup, rate, clients },
          machine: {
            ...machine,
            loadAverageAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100),
          },
          loadS,
          achievedRate: counts.requests / loadS,
          fellBehind: pacer.fellBehind,
          pass,
          targets,
          heapGrowth: growth,
          counters,
          counts,
          probe: probeTally.snapshot(),
          marks,
          measured: measuredSamples(server.samples, marks).length,
          samples: shown,
        },
        null,
        2,
      )}\n`,
    );
    log(`written ${outFile}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
