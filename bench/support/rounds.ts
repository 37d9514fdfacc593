import { log } from './log.js';
import type { BenchMode } from '../bench.config.js';
import type { CpuReading } from './ipc.js';
import { runLoad, type LoadResult } from './load.js';
import type { RoundSample } from './report.js';
import type { ServerHandle } from './server-handle.js';
import type { WireRequest } from './wire.js';

export interface MeasuredVariant {
  id: string;
  label: string;
  server: ServerHandle;
  request: WireRequest;
}

/** A measured run: the load's figures and the server's CPU time per request it received. */
function sampleOf(load: LoadResult, cpu: CpuReading): RoundSample {
  const cpuMsPerRequest = (cpu.userUs + cpu.systemUs) / 1000 / Math.max(1, cpu.requests);
  return { ...load, cpuMsPerRequest, serverRequests: cpu.requests };
}

/**
 * Warms every variant up once, then runs interleaved rounds (each variant in turn, every
 * round): warm-up, then a measured run with the server's CPU time read around it. With
 * `rotate`, each round starts one variant later, so that no variant always runs first or
 * right after the same neighbour (for differences of a few percent).
 */
export async function measureRounds(
  variants: readonly MeasuredVariant[],
  mode: Pick<BenchMode, 'rounds' | 'primeS' | 'warmupS' | 'durationS' | 'connections'>,
  { rotate = false }: { rotate?: boolean } = {},
): Promise<Map<string, RoundSample[]>> {
  const { connections } = mode;
  log('warming every variant up');
  for (const variant of variants) {
    await runLoad(variant.server.url, variant.request, { durationS: mode.primeS, connections });
  }
  const samples = new Map<string, RoundSample[]>(variants.map((variant) => [variant.id, []]));
  for (let round = 1; round <= mode.rounds; round += 1) {
    log(`round ${round}/${mode.rounds}`);
    const offset = rotate ? (round - 1) % variants.length : 0;
    for (const variant of [...variants.slice(offset), ...variants.slice(0, offset)]) {
      const { server, request } = variant;
      await runLoad(server.url, request, { durationS: mode.warmupS, connections });
      await server.cpuStart();
      const load = await runLoad(server.url, request, { durationS: mode.durationS, connections });
      const cpu = await server.cpuStop();
      const sample = sampleOf(load, cpu);
      const { cpuMsPerRequest } = sample;
      samples.get(variant.id)!.push(sample);
      const failed = load.non2xx + load.errors + load.timeouts;
      log(
        `  ${variant.label.padEnd(36)} ${load.requestsPerSecond.toFixed(0).padStart(6)} req/s` +
          `  ${cpuMsPerRequest.toFixed(3)} CPU ms/req` +
          (failed > 0
            ? `  (${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts)`
            : ''),
      );
    }
  }
  return samples;
}

/** One side of a pair: how to start a fresh server for it, and what it is sent. */
export interface PairSide {
  id: string;
  label: string;
  request: WireRequest;
  start(): Promise<ServerHandle>;
}

/** A setup measured in the same windows as the one it is compared with. */
export interface MeasuredPair {
  of: PairSide;
  to: PairSide;
}

/** The key of a pair's samples in what `measurePairedRounds` returns. */
export const pairKey = (of: string, to: string) => `${of} / ${to}`;

/** The windows of one pair: `of[i]` and `to[i]` were measured at the same time. */
export interface PairedSamples {
  of: RoundSample[];
  to: RoundSample[];
}

/**
 * Rounds of pairs, for ratios of a few percent on a shared machine: the two servers of a
 * pair are loaded at the same time (half the connections each) and their CPU read over
 * the same window, so that whatever else the machine does in that window weighs on both.
 * Every pair gets two fresh processes each round, warmed up together: one process of a
 * setup kept for a whole run could cost 1.5 times another of the same setup throughout
 * (its JIT's choices, its heap's layout), and a server shared by several pairs stayed
 * warmer than the ones beside it. Each round takes the pairs in turn, one pair later each
 * round. `inspect` sees each pair's servers of the last round before they close. Keyed by
 * `pairKey(of.id, to.id)`.
 */
export async function measurePairedRounds(
  pairs: readonly MeasuredPair[],
  mode: Pick<BenchMode, 'rounds' | 'primeS' | 'durationS' | 'connections'>,
  inspect?: (pair: MeasuredPair, of: ServerHandle, to: ServerHandle) => Promise<void>,
): Promise<Map<string, PairedSamples>> {
  const connections = Math.max(1, Math.floor(mode.connections / 2));
  const together = (sides: Array<[PairSide, ServerHandle]>, durationS: number) =>
    Promise.all(
      sides.map(([side, server]) => runLoad(server.url, side.request, { durationS, connections })),
    );
  const samples = new Map<string, PairedSamples>(
    pairs.map(({ of, to }) => [pairKey(of.id, to.id), { of: [], to: [] }]),
  );
  for (let round = 1; round <= mode.rounds; round += 1) {
    log(`round ${round}/${mode.rounds}`);
    const offset = (round - 1) % pairs.length;
    for (const pair of [...pairs.slice(offset), ...pairs.slice(0, offset)]) {
      const { of, to } = pair;
      const [ofServer, toServer] = await Promise.all([of.start(), to.start()]);
      try {
        const sides: Array<[PairSide, ServerHandle]> = [
          [of, ofServer],
          [to, toServer],
        ];
        await together(sides, mode.primeS);
        await Promise.all([ofServer.cpuStart(), toServer.cpuStart()]);
        const loads = await together(sides, mode.durationS);
        const cpus = await Promise.all([ofServer.cpuStop(), toServer.cpuStop()]);
        const [ofSample, toSample] = loads.map((load, index) => sampleOf(load, cpus[index]!)) as [
          RoundSample,
          RoundSample,
        ];
        const measured = samples.get(pairKey(of.id, to.id))!;
        measured.of.push(ofSample);
        measured.to.push(toSample);
        const failed = [ofSample, toSample].reduce(
          (n, l) => n + l.non2xx + l.errors + l.timeouts,
          0,
        );
        log(
          `  ${of.label.padEnd(40)} ${ofSample.cpuMsPerRequest.toFixed(3)} CPU ms/req, ` +
            `${to.id} ${toSample.cpuMsPerRequest.toFixed(3)}: ` +
            `${(ofSample.cpuMsPerRequest / toSample.cpuMsPerRequest).toFixed(3)}` +
            (failed > 0 ? `  (${failed} failed requests)` : ''),
        );
        if (round === mode.rounds) await inspect?.(pair, ofServer, toServer);
      } finally {
        await Promise.all([ofServer.close(), toServer.close()]);
      }
    }
  }
  return samples;
}
