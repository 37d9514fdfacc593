// Runs the official MCP conformance suites against the conformance app (conformance/).
//
//   npm run conformance                                   every suite (builds first)
//   npm run conformance -- --suite 0.1-active,0.2-pending only these suites
//   npm run conformance -- --scenario tools-call-error    one scenario, at each wire that has it
//                                                         (a tasks-* one at 2026-07-28)
//   npm run conformance -- --lean-path off                with `http.leanPath: false` (every
//                                                         request through the SDK's entry)
//   npm run conformance -- --lean-path both               both settings, side by side (as CI runs)
//
// The app runs on this machine's Node (the library supports Node 20); the suites need
// Node >= 22, which scripts/node22.mjs provides (tools/node22, installed on first use). Full
// output goes to conformance/results/; conformance/baseline.yml lists the failures we expect,
// with reasons. See conformance/README.md.
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { printSummary, readChecks } from './conformance-report.mjs';
import { EXTENSION_RUN, SUITE_CLI, SUITES } from './conformance-suites.mjs';
import { node22 as findNode22 } from './node22.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'conformance', 'results');
const BASELINE = join(ROOT, 'conformance', 'baseline.yml');
const APP = join(ROOT, 'dist-conformance', 'main.js');

const { values: options } = parseArgs({
  options: {
    suite: { type: 'string' },
    scenario: { type: 'string' },
    'lean-path': { type: 'string', default: 'on' },
  },
});

/**
 * The settings of `http.leanPath` the app runs with, one app and one run of every suite
 * each: the conformance app reads CONFORMANCE_LEAN_PATH (conformance/conformance.module.ts).
 * With both, the two run side by side (the suites mostly wait, so this halves the time).
 * Results of `off` go to conformance/results/lean-path-off/.
 */
const LEAN_PATH_SETTINGS = { on: ['on'], off: ['off'], both: ['on', 'off'] };

const children = new Set();
/** The running conformance apps, one per setting of `http.leanPath`. */
const apps = new Set();

async function main() {
  const node22 = await findNode22();
  const suites = selectSuites(node22);
  mkdirSync(RESULTS, { recursive: true });
  const baseline = readBaseline();

  const settings = LEAN_PATH_SETTINGS[options['lean-path']];
  if (!settings) {
    throw new Error(`--lean-path takes on, off or both; got "${options['lean-path']}"`);
  }

  const runs = settings.map(async (leanPath) => {
    const setting = leanPathSetting(leanPath);
    mkdirSync(setting.results, { recursive: true });
    const { url, app } = await startApp(setting);
    console.log(`Conformance app (${setting.label}): ${url} (log: ${setting.shown}/app.log)`);
    const done = [];
    for (const suite of suites) {
      done.push(await runSuite(suite, node22, url, baseline[suite.id], setting));
    }
    await stopApp(app);
    return done;
  });
  const outcomes = (await Promise.all(runs)).flat();

  console.log('\n=== Conformance summary ===');
  for (const outcome of outcomes) printSummary(outcome);
  const failed = outcomes.filter((outcome) => outcome.exitCode !== 0).map((outcome) => outcome.id);
  console.log(failed.length ? `\nFAILED: ${failed.join(', ')}` : '\nAll suites passed.');
  return failed.length ? 1 : 0;
}

/** Where one setting's results go and how its outcomes are named. */
function leanPathSetting(leanPath) {
  return leanPath === 'off'
    ? {
        leanPath,
        label: 'http.leanPath: false',
        suffix: ' [leanPath off]',
        results: join(RESULTS, 'lean-path-off'),
        shown: 'conformance/results/lean-path-off',
      }
    : {
        leanPath,
        label: 'http.leanPath: true',
        suffix: '',
        results: RESULTS,
        shown: 'conformance/results',
      };
}

function selectSuites(node22) {
  if (options.scenario) {
    // One scenario, at each wire: the 0.1 suite (if it has the scenario), then 0.2 at both
    // revisions. The 0.2 CLI skips (and passes) a scenario that a revision does not have.
    const scenario = ['--scenario', options.scenario];
    if (options.scenario.startsWith('tasks-')) {
      return [
        { id: `0.2:${options.scenario}`, cli: '0.2', runs: [[...scenario, ...EXTENSION_RUN]] },
      ];
    }
    const { stdout } = spawnSync(node22, [SUITE_CLI['0.1'], 'list', '--server'], {
      encoding: 'utf8',
    });
    const in01 = stdout.includes(`- ${options.scenario} `);
    return [
      ...(in01 ? [{ id: `0.1:${options.scenario}`, cli: '0.1', runs: [scenario] }] : []),
      {
        id: `0.2:${options.scenario}`,
        cli: '0.2',
        runs: ['2025-11-25', '2026-07-28'].map((revision) => [
          ...scenario,
          '--spec-version',
          revision,
        ]),
      },
    ];
  }
  if (!options.suite) return SUITES;
  const wanted = options.suite.split(',');
  const unknown = wanted.filter((id) => !SUITES.some((suite) => suite.id === id));
  if (unknown.length) {
    throw new Error(
      `Unknown suite ${unknown.join(', ')}; the suites are ${SUITES.map((s) => s.id).join(', ')}`,
    );
  }
  return SUITES.filter((suite) => wanted.includes(suite.id));
}

/**
 * conformance/baseline.yml: suite id → { scenario or "scenario:check-id" → reason }. Read
 * with the YAML parser the suites themselves depend on.
 */
function readBaseline() {
  if (!existsSync(BASELINE)) return {};
  const requireFromSuite = createRequire(SUITE_CLI['0.2']);
  const parsed = requireFromSuite('yaml').parse(readFileSync(BASELINE, 'utf8')) ?? {};
  for (const [id, entries] of Object.entries(parsed)) {
    if (!SUITES.some((suite) => suite.id === id)) {
      throw new Error(
        `${BASELINE}: unknown suite "${id}"; the suites are ${SUITES.map((s) => s.id).join(', ')}`,
      );
    }
    for (const [entry, reason] of Object.entries(entries ?? {})) {
      if (typeof reason !== 'string' || !reason.trim()) {
        throw new Error(
          `${BASELINE}: ${id} → ${entry} needs a reason (why it fails, what fixes it)`,
        );
      }
    }
  }
  return parsed;
}

async function startApp(setting) {
  if (!existsSync(APP))
    throw new Error(`${APP} is missing: run \`npm run build:conformance\` first`);
  const port = await freePort();
  const log = createWriteStream(join(setting.results, 'app.log'));
  const app = spawn(process.execPath, [APP], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      NO_COLOR: '1',
      CONFORMANCE_LEAN_PATH: setting.leanPath,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  apps.add(app);
  app.stdout.pipe(log);
  app.stderr.pipe(log);
  const exited = new Promise((resolve) => app.once('exit', resolve));

  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, sleep(250).then(() => undefined)]);
    if (code !== undefined) {
      throw new Error(
        `The conformance app exited (${code}) before it answered; see ${setting.shown}/app.log`,
      );
    }
    if (await answers(url)) return { url, app };
  }
  throw new Error(
    `The conformance app did not answer on ${url} within 30 s; see ${setting.shown}/app.log`,
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Up means: a 2025 `initialize` gets a 200, so the MCP endpoint itself is serving.
async function answers(url) {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'conformance-runner', version: '1.0.0' },
        },
      }),
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

async function runSuite(suite, node22, url, baselineEntries = {}, setting) {
  const outputDir = join(setting.results, suite.id.replace(/:/g, '-'));
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });
  const log = createWriteStream(`${outputDir}.log`);

  const base = ['server', '--url', url];
  const expected = Object.keys(baselineEntries);
  if (expected.length) {
    // The suites read `server: [scenario | scenario:check-id, ...]`.
    const file = join(outputDir, 'expected-failures.yml');
    const lines = ['server:', ...expected.map((entry) => `  - ${JSON.stringify(entry)}`)];
    writeFileSync(file, `${lines.join('\n')}\n`);
    base.push('--expected-failures', file);
  }
  const runs = suite.requirements ? [['--requirements', suite.requirements]] : suite.runs;

  console.log(
    `--- ${suite.id}${setting.suffix}: conformance ${suite.cli} (${runs.map((r) => r.join(' ')).join('; ')})`,
  );
  let exitCode = 0;
  const scenarios = [];
  const stale = [];
  const unexpected = [];
  for (const [index, run] of runs.entries()) {
    // Several runs of one suite keep their results apart; a scenario is named with the
    // wire it ran at.
    const label = run.includes('--spec-version')
      ? `@${run[run.indexOf('--spec-version') + 1]}`
      : '';
    const runDir = runs.length > 1 ? join(outputDir, String(index + 1)) : outputDir;
    const args = [SUITE_CLI[suite.cli], ...base, '-o', runDir, ...run];
    log.write(`$ node ${args.join(' ')}\n`);
    const { code, stdout } = await runLogged(node22, args, log);
    if (code !== 0) exitCode = code || 1;
    scenarios.push(...readChecks(runDir, stdout, label));
    stale.push(...listedUnder(stdout, 'Stale baseline entries'));
    unexpected.push(...listedUnder(stdout, 'Unexpected failures (not in baseline)'));
  }
  await new Promise((resolve) => log.end(resolve));

  const scored = suite.requirements ? requiredScenarios(node22, suite) : undefined;
  return {
    id: `${suite.id}${setting.suffix}`,
    log: `${setting.shown}/${suite.id.replace(/:/g, '-')}.log`,
    exitCode,
    scenarios,
    scored,
    baseline: baselineEntries,
    stale,
    unexpected,
  };
}

// The entries a suite lists under a heading of its baseline report ("  ✓ name" lines).
function listedUnder(stdout, heading) {
  const section = stdout.split(heading)[1]?.split(/\n\s*\n/)[0] ?? '';
  return [...section.matchAll(/^\s+[✓✗~] (\S+)/gm)].map((match) => match[1]);
}

function runLogged(command, args, log) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      // A dot per finished scenario, so a long suite shows it is alive.
      const done = String(chunk).match(/Results saved to/g);
      if (done) process.stdout.write('.'.repeat(done.length));
    });
    child.once('close', (code, signal) => {
      children.delete(child);
      process.stdout.write('\n');
      resolve({ code: signal ? 1 : code, stdout });
    });
  });
}

// The scenarios a requirement set scores; the suite also runs unscored ones (extensions,
// pending) and reports them, but they do not decide its exit code.
function requiredScenarios(node22, suite) {
  const { stdout } = spawnSync(
    node22,
    [SUITE_CLI[suite.cli], 'list', '--requirements', suite.requirements],
    { encoding: 'utf8' },
  );
  const section = stdout.split('Server scenarios')[1]?.split('\n\n')[0] ?? '';
  return new Set([...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The app and any running suite end with this script, whatever ends it.
function stopChildren() {
  for (const child of [...children, ...apps]) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
}

async function stopApp(app) {
  apps.delete(app);
  if (app.exitCode !== null || app.signalCode !== null) return;
  const exited = new Promise((resolve) => app.once('exit', resolve));
  app.kill('SIGTERM');
  const timer = setTimeout(() => app.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the conformance apps and the suites`);
    stopChildren();
    process.exit(130);
  });
}
process.once('exit', stopChildren);

main()
  .catch((error) => {
    console.error(`\n${error instanceof Error ? error.message : error}`);
    return 1;
  })
  .then(async (code) => {
    await Promise.all([...apps].map(stopApp));
    process.exit(code);
  });
