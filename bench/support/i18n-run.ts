import { writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchMode } from '../bench.config.js';
import { checkLocalizedAnswers, evaluateI18n, i18nLines, i18nVariants } from './i18n-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
import { targetLines, variantTable } from './report.js';
import { measureRounds } from './rounds.js';
import { startServers, variantReports } from './variants.js';

/**
 * `node dist-bench/run.js --only i18n [--rounds N]`: the localization bench (j) alone, with
 * the app without `i18n` beside it; writes bench/i18n-results.json.
 */
export async function runI18nAlone(mode: BenchMode, modeName: string): Promise<void> {
  const startedAt = new Date();
  const machine = machineInfo();
  log(`nestjs-mcp bench, localization (j) alone, ${mode.rounds} rounds (${modeName} timing)`);
  const variantsRun = i18nVariants(true);
  const servers = await startServers(variantsRun);
  try {
    const bytes = await checkLocalizedAnswers(variantsRun, servers);
    const samples = await measureRounds(
      variantsRun.map((variant) => ({ ...variant, server: servers[variant.server]! })),
      mode,
      { rotate: true },
    );
    const variants = variantReports(variantsRun, samples);
    const i18n = evaluateI18n(variants, bytes);
    const loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
    const out = [
      '',
      `nestjs-mcp bench, localization (j), ${startedAt.toISOString()}`,
      `nestjs-mcp at ${machine.library.commit}${machine.library.libDirty === true ? ' + uncommitted lib/ changes' : ''}; ${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} -> ${loadAverageAtEnd.join(' ')}`,
      `${mode.rounds} interleaved rounds (each starting one variant later) x ${mode.durationS} s, each after ${mode.warmupS} s warm-up (and ${mode.primeS} s once per variant first), ${mode.connections} connections; medians across rounds`,
      '',
      ...variantTable(variants),
      ...i18nLines(i18n),
      '',
      'targets (judged on server CPU time per request; req/s ratio shown for information)',
      ...targetLines(i18n.targets),
      '',
    ];
    process.stdout.write(out.join('\n') + '\n');
    const file = new URL('../../bench/i18n-results.json', import.meta.url);
    const report = {
      date: startedAt.toISOString(),
      durationS: (Date.now() - startedAt.getTime()) / 1000,
      machine: { ...machine, loadAverageAtEnd },
      settings: mode,
      variants,
      i18n,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`written ${file.pathname}`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}
