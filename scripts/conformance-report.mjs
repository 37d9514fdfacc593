// Reading a suite's results and printing its summary, for scripts/conformance.mjs.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// <dir>/server-<scenario>-<timestamp>/checks.json → [{ scenario, checks }]. A scenario that
// crashed or timed out writes no file: it is reported from the suite's output instead.
export function readChecks(dir, stdout, label) {
  const saved = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'checks.json')))
        .map((entry) => ({
          scenario: entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''),
          checks: JSON.parse(readFileSync(join(dir, entry.name, 'checks.json'), 'utf8')),
        }))
    : [];
  const ran = [...stdout.matchAll(/Running client scenario '([^']+)'/g)].map((match) => match[1]);
  const lost = ran
    .filter((scenario) => !saved.some((result) => result.scenario === scenario))
    .map((scenario) => ({
      scenario,
      checks: [
        {
          id: scenario,
          status: 'FAILURE',
          errorMessage: 'no result: crashed or timed out (see the log)',
        },
      ],
    }));
  return [...saved, ...lost]
    .map((result) => ({ ...result, scenario: `${result.scenario}${label}` }))
    .toSorted((a, b) => a.scenario.localeCompare(b.scenario));
}

export function printSummary({
  id,
  log,
  exitCode,
  scenarios,
  scored,
  baseline,
  stale,
  unexpected,
}) {
  const counted = scored ? scenarios.filter((s) => scored.has(s.scenario)) : scenarios;
  const failing = counted.filter((s) => s.checks.some((check) => check.status === 'FAILURE'));
  const warning = counted.filter(
    (s) => !failing.includes(s) && s.checks.some((check) => check.status === 'WARNING'),
  );
  const baselined = Object.keys(baseline).length > 0;
  const verdict =
    exitCode !== 0
      ? `FAILED (exit ${exitCode}${baselined ? '; the suite compared against the baseline, see its log' : ''})`
      : failing.length || (warning.length && baselined)
        ? 'ok, as the baseline expects'
        : warning.length
          ? 'ok (warnings do not fail without a baseline)'
          : 'ok';
  console.log(
    `\n${id}: ${counted.length - failing.length}/${counted.length} scenarios passed, ` +
      `${failing.length} failed, ${warning.length} with warnings: ${verdict}` +
      ` (full output: ${log})`,
  );
  for (const { scenario, checks } of [...failing, ...warning]) {
    const reason = baseline[scenario.replace(/@.*$/, '')];
    console.log(
      `  ${failing.some((s) => s.scenario === scenario) ? '✗' : '!'} ${scenario}${reason ? ` (baseline: ${reason})` : ''}`,
    );
    for (const check of checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) {
      const message = (check.errorMessage ?? check.description ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 240);
      const checkReason = baseline[`${scenario.replace(/@.*$/, '')}:${check.id}`];
      console.log(
        `      ${check.status} ${check.id}: ${message}${checkReason ? ` (baseline: ${checkReason})` : ''}`,
      );
    }
  }
  if (unexpected.length) console.log(`  not in the baseline: ${unexpected.join(', ')}`);
  if (stale.length) {
    console.log(`  stale baseline entries (they pass now; delete them): ${stale.join(', ')}`);
  }
  if (scored) {
    const unscored = scenarios.filter((s) => !scored.has(s.scenario));
    const unscoredFailing = unscored.filter((s) =>
      s.checks.some((check) => check.status === 'FAILURE'),
    );
    if (unscored.length) {
      console.log(
        `  not scored (extensions, pending): ${unscored.length} run, ${unscoredFailing.length} failing` +
          (unscoredFailing.length ? `: ${unscoredFailing.map((s) => s.scenario).join(', ')}` : ''),
      );
    }
  }
}
