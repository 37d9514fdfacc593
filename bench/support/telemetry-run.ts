import type { BenchMode } from '../bench.config.js';
import { reportExperiment } from './experiment-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import type { RoundSample } from './report.js';
import { measurePairedRounds, type MeasuredPair, type PairedSamples } from './rounds.js';
import { median } from './stats.js';
import { evaluateTelemetry, telemetryBaselineOf, telemetryLines } from './telemetry-report.js';
import { probe, startServers, telemetryReadings, telemetryVariants } from './variants.js';
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
  const servers = await startServers(variantsRun);
  try {
    for (const variant of variantsRun) {
      variant.check((await probe(servers[variant.server]!.url, variant.request)).message);
    }
    const measured = variantsRun.map((variant) => ({
      ...variant,
      server: servers[variant.server]!,
    }));
    const pairs = measured.flatMap((of): MeasuredPair[] => {
      const baseline = telemetryBaselineOf(of.id);
      const to = measured.find((variant) => variant.id === baseline);
      return to ? [{ of, to }] : [];
    });
    const windows = await measurePairedRounds(pairs, mode);
    const variants = measured.map((variant) => reportOf(variant, windows));
    const telemetry = evaluateTelemetry(
      variants,
      await telemetryReadings(variantsRun, servers),
      windows,
    );
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
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}

/**
 * A variant's report from the windows it was measured in: its own pair's, or for a
 * baseline only (no OpenTelemetry) those of every pair it was the baseline of.
 */
function reportOf(
  variant: { id: string; label: string },
  windows: Map<string, PairedSamples>,
): VariantReport {
  const rounds: RoundSample[] =
    windows.get(variant.id)?.of ??
    [...windows.entries()]
      .filter(([of]) => telemetryBaselineOf(of) === variant.id)
      .flatMap(([, pair]) => pair.to);
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
