import { writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchMode } from '../bench.config.js';
import { log } from './log.js';
import type { machineInfo } from './machine.js';
import { targetLines, variantTable, type Target, type VariantReport } from './report.js';

/** What a focused experiment (`--only telemetry`, `--only i18n`) measured and concluded. */
export interface ExperimentOutcome {
  /** Its name in the heading: `telemetry experiment`, `localization (j)`. */
  readonly title: string;
  /** The JSON file it writes, relative to bench/: `telemetry-results.json`. */
  readonly file: string;
  readonly startedAt: Date;
  readonly machine: ReturnType<typeof machineInfo>;
  readonly mode: BenchMode;
  readonly variants: readonly VariantReport[];
  /** The experiment's own lines between the variant table and the targets. */
  readonly lines: readonly string[];
  readonly targets: readonly Target[];
  /** The experiment's own section of the JSON report, under its key. */
  readonly section: Readonly<Record<string, unknown>>;
}

/**
 * Prints a focused experiment's table, its lines and its targets, and writes its JSON
 * report (machine, settings, every variant, the experiment's section): one format for
 * every `--only` experiment.
 */
export function reportExperiment(outcome: ExperimentOutcome): void {
  const { title, file, startedAt, machine, mode, variants } = outcome;
  const loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);
  const out = [
    '',
    `nestjs-mcp bench, ${title}, ${startedAt.toISOString()}`,
    `nestjs-mcp at ${machine.library.commit}${machine.library.libDirty === true ? ' + uncommitted lib/ changes' : ''}; ${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} -> ${loadAverageAtEnd.join(' ')}`,
    `${mode.rounds} interleaved rounds (each starting one variant later) x ${mode.durationS} s, each after ${mode.warmupS} s warm-up (and ${mode.primeS} s once per variant first), ${mode.connections} connections; medians across rounds`,
    '',
    ...variantTable(variants),
    ...outcome.lines,
    '',
    'targets (judged on server CPU time per request; req/s ratio shown for information)',
    ...targetLines(outcome.targets),
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
  const url = new URL(`../../bench/${file}`, import.meta.url);
  const report = {
    date: startedAt.toISOString(),
    durationS: (Date.now() - startedAt.getTime()) / 1000,
    machine: { ...machine, loadAverageAtEnd },
    settings: mode,
    variants,
    ...outcome.section,
  };
  writeFileSync(url, `${JSON.stringify(report, null, 2)}\n`);
  log(`written ${url.pathname}`);
}
