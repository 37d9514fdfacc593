import type { BenchMode } from '../bench.config.js';
import { reportExperiment } from './experiment-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import type { RoundSample } from './report.js';
import { measurePairedRounds, pairKey, type MeasuredPair, type PairedSamples } from './rounds.js';
import { median } from './stats.js';
import { evaluateTelemetry, TELEMETRY_COMPARISONS, telemetryLines } from './telemetry-report.js';
import type { TelemetryReading } from './ipc.js';
import { ServerHandle } from './server-handle.js';
import { probe, SERVERS, telemetryVariants } from './variants.js';
import type { VariantReport } from './report.js';

/**
 * `node dist-bench/run.js --only telemetry [--rounds N]`: the telemetry experiment (g)
 * alone, with every setup; writes bench/telemetry-results.json. Each setup is loaded at
 * the same time as the one it is compared with (`measurePairedRounds`): rounds a few
 * seconds apart spread by ±15 % on this shared machine, same-window pairs by a few percent.
 */
export async function runTelemetryAlone(mode: BenchMode, modeName: string): Promise<void> {
  const startedAt = new Date();
  const machine = machineInfo();
  log(`nestjs-mcp bench, telemetry experiment alone, ${mode.rounds} rounds (${modeName} timing)`);
  const variantsRun = telemetryVariants(true);
  const byId = new Map(variantsRun.map((variant) => [variant.id, variant]));
  const comparisons = TELEMETRY_COMPARISONS.filter(({ of, to }) => byId.has(of) && byId.has(to));
  const started: ServerHandle[] = [];
  try {
    // Each pair has its own two server processes. A baseline shared by every pair would be
    // loaded in every window and idle in none, where the setup beside it idles through the
    // other pairs' windows: that alone put the API with no provider, which does two
    // look-ups per request, at up to 1.46 times a shared baseline (bench/README.md).
    const pairs: MeasuredPair[] = [];
    for (const { of, to } of comparisons) {
      const [ofVariant, toVariant] = [byId.get(of)!, byId.get(to)!];
      const [ofServer, toServer] = await Promise.all(
        [ofVariant, toVariant].map((variant) => ServerHandle.start(SERVERS[variant.server])),
      );
      started.push(ofServer!, toServer!);
      for (const [variant, server] of [
        [ofVariant, ofServer!],
        [toVariant, toServer!],
      ] as const)
        variant.check((await probe(server.url, variant.request)).message);
      pairs.push({
        of: { ...ofVariant, server: ofServer! },
        to: { ...toVariant, server: toServer! },
      });
    }
    const windows = await measurePairedRounds(pairs, mode);
    const variants = variantsRun.map((variant) => reportOf(variant, windows));
    // What each setup's first server exported (each checks one span per request).
    const readings: Record<string, TelemetryReading> = {};
    for (const variant of variantsRun) {
      const pair = pairs.find(({ of, to }) => of.id === variant.id || to.id === variant.id)!;
      const server = pair.of.id === variant.id ? pair.of.server : pair.to.server;
      readings[variant.id] = await server.telemetry();
    }
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
  } finally {
    await Promise.all(started.map((server) => server.close()));
  }
}

/**
 * A variant's report from the windows it was measured in: those of its pair with its
 * first baseline, or for a baseline only (no OpenTelemetry) those of every pair it was
 * the baseline of.
 */
function reportOf(
  variant: { id: string; label: string },
  windows: Map<string, PairedSamples>,
): VariantReport {
  const first = TELEMETRY_COMPARISONS.find(({ of }) => of === variant.id);
  const rounds: RoundSample[] = first
    ? windows.get(pairKey(first.of, first.to))!.of
    : TELEMETRY_COMPARISONS.filter(({ to }) => to === variant.id).flatMap(
        ({ of, to }) => windows.get(pairKey(of, to))?.to ?? [],
      );
  const of = (pick: (sample: RoundSample) => number) => median(rounds.map(pick));
  return {
    id: variant.id,
    label: variant.label,
    rounds,
    median: {
      requestsPerSecond: of((r) => r.requestsPerSecond),
      p50Ms: of((r) => r.p50Ms),
      p99Ms: of((r) => r.p99Ms),
      cpuMsPerRequest: of((r) => r.cpuMsPerRequest),
    },
    failedRequests: rounds.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}
