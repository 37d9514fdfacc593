import type { BenchMode } from '../bench.config.js';
import { reportExperiment } from './experiment-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import { measureRounds } from './rounds.js';
import { evaluateTelemetry, telemetryLines } from './telemetry-report.js';
import {
  probe,
  startServers,
  telemetryReadings,
  telemetryVariants,
  variantReports,
} from './variants.js';

/**
 * `node dist-bench/run.js --only telemetry [--rounds N]`: the telemetry experiment (g)
 * alone, with the BasicTracerProvider server too; writes bench/telemetry-results.json.
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
    const samples = await measureRounds(
      variantsRun.map((variant) => ({ ...variant, server: servers[variant.server]! })),
      mode,
      { rotate: true },
    );
    const variants = variantReports(variantsRun, samples);
    const telemetry = evaluateTelemetry(variants, await telemetryReadings(variantsRun, servers));
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
