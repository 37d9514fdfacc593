import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ListenersChild } from './support/listeners-child.js';
import {
  LISTENERS_SCENARIOS,
  type ListenersScenario,
  type LoopDelayReading,
  type OpenReading,
  type RoundReading,
  type ServerMemory,
} from './support/listeners-ipc.js';
import {
  evaluateListeners,
  listenersTable,
  median,
  perStreamOf,
  SCENARIO_TITLES,
  type BroadcastRound,
  type ScenarioResult,
} from './support/listeners-report.js';
import { summarizeProfile, type ProfileEntry } from './support/cpu-profile.js';
import { log } from './support/log.js';
import { machineInfo } from './support/machine.js';

// Issue 33, idle listeners at scale: 10,000 idle streams on one server, for each scenario
// in a server process of its own with its clients in another (bench/support/listeners-*):
// memory per stream, event-loop delay while idle, and the time one change takes to reach
// every stream, against a plain Nest `@Sse()` route holding as many in the same run and
// measured in the same windows.
// `npm run bench:listeners`, or after a bench build
// `node dist-bench/listeners.js [--count 10000] [--only plain,listen-2026] [--json file]
// [--snapshot dir] [--profile dir]` (heap snapshots of the servers before and after the
// streams open; a CPU profile of the broadcasts, summarised).

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '500' },
    'settle-seconds': { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '15' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string' },
    json: { type: 'string' },
    snapshot: { type: 'string' },
    profile: { type: 'string' },
  },
});
const count = Number(args.count);
const batch = Number(args.batch);
const settleSeconds = Number(args['settle-seconds']);
const idleSeconds = Number(args['idle-seconds']);
const roundCount = Number(args.rounds);
const scenarios = args.only
  ? (args.only.split(',') as ListenersScenario[])
  : [...LISTENERS_SCENARIOS];
/** Streams opened and closed before the baseline, so that lazy set-up is not counted per stream. */
const WARM_UP_STREAMS = 50;
const ROUND_TIMEOUT_MS = 60_000;

const SERVER_SCRIPT = './listeners-server.process.js';
const CLIENTS_SCRIPT = './listeners-clients.process.js';

async function warmUp(server: ListenersChild, scenario: ListenersScenario): Promise<void> {
  const clients = await ListenersChild.start(CLIENTS_SCRIPT, { scenario });
  try {
    await clients.command({ command: 'open', port: server.port!, count: WARM_UP_STREAMS, batch });
    const round = clients.command({ command: 'round', round: 1, timeoutMs: ROUND_TIMEOUT_MS });
    await server.command({ command: 'broadcast' });
    await round;
  } finally {
    await clients.close();
  }
  // The server notices the closed streams.
  await sleep(1_000);
}

/** With `--snapshot dir`: a heap snapshot of the server before and after opening the streams. */
async function snapshot(server: ListenersChild, scenario: ListenersScenario, when: string) {
  if (!args.snapshot) return;
  const file = join(args.snapshot, `listeners-${scenario}-${when}.heapsnapshot`);
  await server.command({ command: 'snapshot', file }, 10 * 60_000);
  log(`  heap snapshot: ${file}`);
}

const profileLine = (entry: ProfileEntry) =>
  `    ${entry.ms.toFixed(0).padStart(6)} ms ${(entry.share * 100).toFixed(1).padStart(5)} %  ${entry.name}`;

/**
 * With `--profile dir`: where the server spent its CPU while the streams opened, while idle
 * and during the broadcast rounds (the profiler lengthens them: they are not the figures then).
 */
async function profileStop(server: ListenersChild, scenario: ListenersScenario, phase: string) {
  if (!args.profile) return;
  const file = join(args.profile, `listeners-${scenario}-${phase}.cpuprofile`);
  await server.command({ command: 'profile-stop', file }, 5 * 60_000);
  const summary = summarizeProfile(file, { top: 20 });
  log(`  CPU profile (${phase}, ${summary.busyMs.toFixed(0)} ms busy): ${file}`);
  for (const entry of summary.selfByPackage) log(profileLine(entry));
  for (const entry of summary.selfByFunction) log(profileLine(entry));
}

/** One scenario's server and clients, held open until every scenario has been measured. */
interface Held {
  scenario: ListenersScenario;
  server: ListenersChild;
  clients?: ListenersChild;
  before?: ServerMemory;
  after?: ServerMemory;
  open?: OpenReading;
  idle?: LoopDelayReading;
  rounds: BroadcastRound[];
}

/** Starts a scenario's server, warms it up and takes its baseline. */
async function start(scenario: ListenersScenario): Promise<Held> {
  log(`${SCENARIO_TITLES[scenario]}: starting the server`);
  const server = await ListenersChild.start(SERVER_SCRIPT, { scenario, capacity: count });
  const held: Held = { scenario, server, rounds: [] };
  await warmUp(server, scenario);
  held.before = (await server.command({ command: 'memory' })).memory!;
  await snapshot(server, scenario, 'before');
  return held;
}

/** Opens the scenario's streams and reads the server's memory once they are idle. */
async function openStreams(held: Held): Promise<void> {
  const { scenario, server } = held;
  held.clients = await ListenersChild.start(CLIENTS_SCRIPT, { scenario });
  if (args.profile) await server.command({ command: 'profile-start' });
  const open = (
    await held.clients.command({ command: 'open', port: server.port!, count, batch }, 30 * 60_000)
  ).open!;
  held.open = open;
  await profileStop(server, scenario, 'open');
  log(
    `${scenario}: ${open.opened} streams open in ${(open.ms / 1000).toFixed(1)} s, ` +
      `${open.failed} failed` +
      (open.firstError ? ` (first: ${open.firstError})` : ''),
  );
  await sleep(settleSeconds * 1_000);
  held.after = (await server.command({ command: 'memory' })).memory!;
  log(
    `${scenario}: ${held.after.connections} connections; ` +
      `RSS ${(held.after.rss / 1024 ** 2).toFixed(0)} MiB`,
  );
  await snapshot(server, scenario, 'after');
}

/** One change published on one server, until every stream of it has heard of it. */
async function broadcastOnce(held: Held, round: number): Promise<void> {
  const { server, clients } = held;
  const arrived = clients!.command(
    { command: 'round', round, timeoutMs: ROUND_TIMEOUT_MS },
    ROUND_TIMEOUT_MS + 10_000,
  );
  const { triggeredAt } = await server.command({ command: 'broadcast' });
  const reading: RoundReading = (await arrived).round!;
  const { cpuMs } = await server.command({ command: 'broadcast-cpu' });
  const measured: BroadcastRound = {
    lastMs: reading.lastAt - triggeredAt!,
    medianMs: reading.medianAt - triggeredAt!,
    serverCpuMs: cpuMs!,
    received: reading.received,
    dropped: reading.dropped,
  };
  held.rounds.push(measured);
  log(
    `${held.scenario} round ${round}: ${reading.received} received, last after ` +
      `${measured.lastMs.toFixed(1)} ms (median ${measured.medianMs.toFixed(1)} ms), ` +
      `server CPU ${measured.serverCpuMs.toFixed(1)} ms`,
  );
}

/**
 * Every scenario holds its streams at once, so that their idle windows are the same window
 * and their broadcasts alternate (each round starting with the next scenario): what else
 * the machine runs weighs on all of them alike.
 */
async function measureTogether(held: Held[]): Promise<void> {
  for (const one of held) await openStreams(one);
  log(`idle: ${idleSeconds} s, every server at once`);
  if (args.profile) for (const one of held) await one.server.command({ command: 'profile-start' });
  const idle = await Promise.all(
    held.map(
      async (one) =>
        (
          await one.server.command(
            { command: 'loop-delay', seconds: idleSeconds },
            idleSeconds * 3_000 + 10_000,
          )
        ).delay!,
    ),
  );
  for (const one of held) await profileStop(one.server, one.scenario, 'idle');
  held.forEach((one, index) => {
    one.idle = idle[index];
    log(`${one.scenario}: idle event-loop delay p99 ${one.idle!.p99Ms.toFixed(1)} ms`);
  });
  if (args.profile) for (const one of held) await one.server.command({ command: 'profile-start' });
  for (let round = 1; round <= roundCount; round += 1) {
    for (let turn = 0; turn < held.length; turn += 1) {
      await broadcastOnce(held[(round - 1 + turn) % held.length]!, round);
      await sleep(500);
    }
  }
  for (const one of held) await profileStop(one.server, one.scenario, 'broadcast');
}

const resultOf = (held: Held): ScenarioResult => ({
  scenario: held.scenario,
  open: held.open!,
  before: held.before!,
  after: held.after!,
  perStream: perStreamOf(held.before!, held.after!, held.open!.opened),
  idle: held.idle!,
  rounds: held.rounds,
  broadcastMs: median(held.rounds.map((round) => round.lastMs)),
  broadcastCpuMs: median(held.rounds.map((round) => round.serverCpuMs)),
});

async function main(): Promise<void> {
  const machine = machineInfo();
  log(
    `listeners bench: ${count} streams per scenario (${scenarios.join(', ')}), node ` +
      `${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`,
  );
  const held: Held[] = [];
  let results: ScenarioResult[];
  try {
    for (const scenario of scenarios) held.push(await start(scenario));
    await measureTogether(held);
    results = held.map(resultOf);
  } finally {
    for (const one of held) {
      await one.clients?.close();
      await one.server.close();
    }
  }
  const verdicts = evaluateListeners(results);
  process.stdout.write(`${listenersTable(results, verdicts)}\n`);
  if (args.json) {
    const settings = { count, batch, settleSeconds, idleSeconds, rounds: roundCount };
    const report = { date: new Date().toISOString(), machine, settings, results, verdicts };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    log(`written to ${args.json}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
