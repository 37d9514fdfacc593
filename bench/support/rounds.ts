import { log } from './log.js';
import type { BenchMode } from '../bench.config.js';
import { runLoad } from './load.js';
import type { RoundSample } from './report.js';
import type { ServerHandle } from './server-handle.js';
import type { WireRequest } from './wire.js';

export interface MeasuredVariant {
  id: string;
  label: string;
  server: ServerHandle;
  request: WireRequest;
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
      const cpuMsPerRequest = (cpu.userUs + cpu.systemUs) / 1000 / Math.max(1, cpu.requests);
      samples.get(variant.id)!.push({ ...load, cpuMsPerRequest, serverRequests: cpu.requests });
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
