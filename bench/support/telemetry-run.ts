import type { BenchMode } from '../bench.config.js';
import { reportExperiment } from './experiment-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import type { RoundSample } from './report.js';
import {
  measurePairedRounds,
  pairKey,
  type MeasuredPair,
  type PairedSamples,
  type PairSide,
} from './rounds.js';
import { evaluateTelemetry, TELEMETRY_COMPARISONS, telemetryLines } from './telemetry-report.js';
import type { TelemetryReading } from './ipc.js';
import { ServerHandle } from './server-handle.js';
import { probe, SERVERS, telemetryVariants, variantReports } from './variants.js';

/**
 * `node dist-bench/run.js --only telemetry [--rounds N]`: the telemetry experiment (g)
 * alone, with every setup; writes bench/telemetry-results.json. Each setup is loaded at
 * the same time as the one it is compared with, on two fresh processes each round
 * (`measurePairedRounds`).
 */
export async function runTelemetryAlone(mode: BenchMode, modeName: string): Promise<void> {
  const startedAt = new Date();
  const machine = machineInfo();
  log(`nestjs-mcp bench, telemetry experiment alone, ${mode.rounds} rounds (${modeName} timing)`);
  const variantsRun = telemetryVariants(true);
  const byId = new Map(variantsRun.map((variant) => [variant.id, variant]));
  const comparisons = TELEMETRY_COMPARISONS.filter(({ of, to }) => byId.has(of) && byId.has(to));
  const sideOf = (id: string): PairSide => {
    const variant = byId.get(id)!;
    return {
      id,
      label: variant.label,
      request: variant.request,
      async start() {
        const server = await ServerHandle.start(SERVERS[variant.server]);
        try {
          variant.check((await probe(server.url, variant.request)).message);
        } catch (error) {
          await server.close();
          throw error;
        }
        return server;
      },
    };
  };
  const pairs = comparisons.map(({ of, to }): MeasuredPair => ({ of: sideOf(of), to: sideOf(to) }));
  // What each setup's servers of the last round exported (each checks one span per request).
  const readings: Record<string, TelemetryReading> = {};
  const windows = await measurePairedRounds(pairs, mode, async ({ of, to }, ofServer, toServer) => {
    readings[of.id] ??= await ofServer.telemetry();
    readings[to.id] ??= await toServer.telemetry();
  });
  const variants = variantReports(
    variantsRun,
    roundsOf(
      variantsRun.map((variant) => variant.id),
      windows,
    ),
  );
  const telemetry = evaluateTelemetry(variants, readings, windows);
  reportExperiment({
    title: 'telemetry experiment',
    file: 'telemetry-results.json',
    startedAt,
    machine,
    mode,
    variants,
    lines: telemetryLines(telemetry),
    targets: telemetry.targets,
    section: { telemetry },
  });
}

/**
 * The windows each variant was measured in: those of its pair with its first baseline, or
 * for a baseline only (no OpenTelemetry) those of every pair it was the baseline of.
 */
function roundsOf(ids: readonly string[], windows: Map<string, PairedSamples>) {
  return new Map(
    ids.map((id): [string, RoundSample[]] => {
      const first = TELEMETRY_COMPARISONS.find(({ of }) => of === id);
      if (first) return [id, windows.get(pairKey(first.of, first.to))!.of];
      const asBaseline = TELEMETRY_COMPARISONS.filter(({ to }) => to === id);
      return [id, asBaseline.flatMap(({ of, to }) => windows.get(pairKey(of, to))?.to ?? [])];
    }),
  );
}
