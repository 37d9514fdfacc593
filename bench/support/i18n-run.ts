import type { BenchMode } from '../bench.config.js';
import { checkLocalizedAnswers, evaluateI18n, i18nLines, i18nVariants } from './i18n-report.js';
import { reportExperiment } from './experiment-report.js';
import { log } from './log.js';
import { machineInfo } from './machine.js';
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
    reportExperiment({
      title: 'localization (j)',
      file: 'i18n-results.json',
      startedAt,
      machine,
      mode,
      variants,
      lines: i18nLines(i18n),
      targets: i18n.targets,
      section: { i18n },
    });
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}
