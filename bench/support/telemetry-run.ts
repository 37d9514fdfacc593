import { writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchMode } from '../bench.config.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import { targetLines, variantTable } from './report.js';
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
    const loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
    const out = [
      '',
      `nestjs-mcp bench, telemetry experiment, ${startedAt.toISOString()}`,
      `nestjs-mcp at ${machine.library.commit}${machine.library.libDirty === true ? ' + uncommitted lib/ changes' : ''}; ${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} -> ${loadAverageAtEnd.join(' ')}`,
      `${mode.rounds} interleaved rounds (each starting one variant later) x ${mode.durationS} s, each after ${mode.warmupS} s warm-up (and ${mode.primeS} s once per variant first), ${mode.connections} connections; medians across rounds`,
      '',
      ...variantTable(variants),
      ...telemetryLines(telemetry),
      '',
      'targets (judged on server CPU time per request; req/s ratio shown for information)',
      ...targetLines(telemetry.targets),
      '',
    ];
    process.stdout.write(out.join('\n') + '\n');
    const file = new URL('../../bench/telemetry-results.json', import.meta.url);
    const report = {
      date: startedAt.toISOString(),
      durationS: (Date.now() - startedAt.getTime()) / 1000,
      machine: { ...machine, loadAverageAtEnd },
      settings: mode,
      variants,
      telemetry,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`written ${file.pathname}`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}
