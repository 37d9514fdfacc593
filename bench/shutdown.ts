// Graceful shutdown under load (issue 33, item 5): SIGTERM to a server process while 500
// calls and 1,000 streams are open, on both wires. Every call must be answered (its
// result) or refused with a clean error; every stream must get its end (the final
// `subscriptions/listen` result, a 2025 stream's last chunk); calls arriving during the drain
// get 503; no connection is reset; the process exits within `http.shutdownTimeoutMs` (plus a
// margin). Then, with Redis, the sample as two instances A and B: a task running on A when A
// gets SIGTERM, read on B afterwards (bench/support/shutdown-redis.ts).
//
//   npx tsc -p tsconfig.build.json && npx tsc -p bench/tsconfig.json
//   node dist-bench/shutdown.js [--adapter fastify] [--grace 5000] [--streams 1000] [--no-load] [--no-redis]
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SLOW_TOOL } from './apps/shutdown.app.js';
import {
  callOutcomeOf,
  exchange,
  modernRequest,
  openSession,
  openStream,
  sessionRequest,
  type CallOutcome,
  type Exchange,
  type OpenStream,
  type StreamOutcome,
  type Target,
} from './support/shutdown-clients.js';
import type { LateReport } from './support/shutdown-late.process.js';
import { runRedisShutdown } from './support/shutdown-redis.js';

const CALLS = 500;
/** Of the calls, those whose tool outlasts the grace: the drain's timeout is met too. */
const STUCK_CALLS = 20;
const SESSIONS = 200;
/** What the process may take beyond the grace (Nest's other hooks, closing the server). */
const EXIT_MARGIN_MS = 1_000;

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const adapter = argument('adapter') ?? 'express';
const graceMs = Number(argument('grace') ?? 5_000);
/** Streams at SIGTERM, 4 in 5 of them listen streams (fewer: what ending them costs). */
const STREAMS = Number(argument('streams') ?? 1_000);
const LISTENS = Math.round(STREAMS * 0.8);
const SESSION_STREAMS = Math.min(SESSIONS, STREAMS - LISTENS);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APP = fileURLToPath(new URL('apps/shutdown.app.js', import.meta.url));
const LATE = fileURLToPath(new URL('support/shutdown-late.process.js', import.meta.url));
const REGISTER = new URL('support/register.js', import.meta.url).href;

const tally = <T extends string>(values: T[]) =>
  values.reduce<Record<string, number>>((counts, value) => {
    counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }, {});

async function startServer(): Promise<{ child: ChildProcess; port: number; output(): string }> {
  const child = spawn(process.execPath, ['--import', REGISTER, APP], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NO_COLOR: '1',
      SHUTDOWN_GRACE_MS: String(graceMs),
      SHUTDOWN_ADAPTER: adapter,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const port = /listening (\d+)/.exec(output)?.[1];
    if (port) return { child, port: Number(port), output: () => output };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await pause(50);
  }
}

/** How a broken exchange ended: the error, or the status and the start of the body. */
const detailOf = (answer: Exchange) =>
  answer.kind === 'failed'
    ? `${answer.code}${answer.status ? ` after ${answer.status}` : ''}`
    : `${answer.status} ${answer.text.slice(0, 60)}`;

/** The late caller (support/shutdown-late.process.ts), started and waiting for `go`. */
async function startLateCaller(port: number) {
  const child = fork(LATE, [String(port), SLOW_TOOL, String(graceMs + 10_000)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [unknown];
  if (ready !== 'ready') throw new Error(`the late caller said ${String(ready)}`);
  const report = once(child, 'message').then(([message]) => message as LateReport);
  return { child, report };
}

/** Runs `make` for each of `count`, at most `width` at a time. */
async function inBatches<T>(count: number, width: number, make: (index: number) => Promise<T>) {
  const made: T[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, at) =>
      make(start + at),
    );
    made.push(...(await Promise.all(batch)));
  }
  return made;
}

/** Settles with `value`, or with `'hung'` once `ms` passed. */
const within = <T>(ms: number, value: Promise<T>, hung: T) =>
  Promise.race([value, pause(ms, hung, { ref: false })]);

async function runLoad(): Promise<boolean> {
  const brokenDetails: string[] = [];
  const server = await startServer();
  const target: Target = { port: server.port, path: '/mcp' };
  const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  const sessions = await inBatches(SESSIONS, 25, () => openSession(target));
  const streams: { wire: string; stream: OpenStream }[] = [
    ...(await inBatches(LISTENS, 100, async () => ({
      wire: '2026 listen',
      stream: await openStream(target, 'listen'),
    }))),
    ...(await inBatches(SESSION_STREAMS, 100, async (at) => ({
      wire: '2025 GET',
      stream: await openStream(target, 'session', sessions[at]),
    }))),
  ];

  // The calls: half on each wire, most of them 2.5–4 s, a few longer than the grace.
  const calls = Array.from({ length: CALLS }, (_, at) => {
    const stuck = at < STUCK_CALLS;
    const ms = stuck ? 120_000 : 2_500 + Math.floor(Math.random() * 1_500);
    const wire = at % 2 === 0 ? '2026' : '2025';
    const params = { name: SLOW_TOOL, arguments: { ms } };
    const request =
      wire === '2026'
        ? modernRequest('tools/call', params)
        : sessionRequest(sessions[at % SESSIONS]!, 'tools/call', params);
    const answer = exchange(target, 'POST', request.headers, request.body);
    return { wire, stuck, answer };
  });
  // Sent and read by the server (on a loaded machine it takes a while): the shortest call
  // has 2.5 s to run, so every call is in flight at SIGTERM.
  await pause(1_500);

  const late = await startLateCaller(server.port);
  const signalled = performance.now();
  server.child.kill('SIGTERM');
  // Calls arriving during the drain, from a process whose event loop is free.
  late.child.send('go');
  const exit = await within(graceMs + 15_000, exited, undefined);
  const exitMs = performance.now() - signalled;
  if (!exit) server.child.kill('SIGKILL');

  const callOutcomes = await Promise.all(
    calls.map(async (call) => ({
      ...call,
      outcome: await within(
        5_000,
        call.answer.then((answer) => {
          const outcome = callOutcomeOf(answer);
          if (outcome === 'broken') brokenDetails.push(`${call.wire}: ${detailOf(answer)}`);
          return outcome;
        }),
        'hung' as CallOutcome,
      ),
    })),
  );
  const streamOutcomes = await Promise.all(
    streams.map(async ({ wire, stream }) => ({
      wire,
      ...(await within(5_000, stream.outcome, { outcome: 'hung' as StreamOutcome })),
    })),
  );
  const lateReport = await within(10_000, late.report, undefined);
  late.child.kill();
  const lateOutcomes = lateReport?.outcomes ?? ['hung' as CallOutcome];

  const byGroup = (group: (call: (typeof callOutcomes)[number]) => boolean) =>
    tally(callOutcomes.filter(group).map((call) => call.outcome));
  console.log(`\n### Load (${adapter}, http.shutdownTimeoutMs ${graceMs} ms)\n`);
  for (const wire of ['2026', '2025']) {
    console.log(
      `- calls ${wire}, 2.5–4 s: ${JSON.stringify(byGroup((c) => c.wire === wire && !c.stuck))}`,
    );
    console.log(
      `- calls ${wire}, 120 s (past the grace): ${JSON.stringify(byGroup((c) => c.wire === wire && c.stuck))}`,
    );
  }
  for (const wire of ['2026 listen', '2025 GET']) {
    const of = streamOutcomes.filter((stream) => stream.wire === wire);
    console.log(`- streams ${wire}: ${JSON.stringify(tally(of.map((stream) => stream.outcome)))}`);
    const details = tally(of.flatMap((stream) => (stream.detail ? [stream.detail] : [])));
    if (Object.keys(details).length > 0) console.log(`  broken: ${JSON.stringify(details)}`);
  }
  if (brokenDetails.length > 0) console.log(`  broken: ${JSON.stringify(tally(brokenDetails))}`);
  if (lateReport && lateReport.resets.length > 0) {
    const resets = lateReport.resets.map(
      (reset) => `${reset.code} ${reset.sentMs}→${reset.failedMs}`,
    );
    console.log(`  late resets, sent→failed (ms after SIGTERM): ${resets.join(', ')}`);
  }
  console.log(`- calls arriving after SIGTERM: ${JSON.stringify(tally(lateOutcomes))}`);
  const [code, signal] = exit ?? [null, 'SIGKILL (the run killed it)'];
  console.log(
    `- exit: code ${code}, signal ${signal}, ${Math.round(exitMs)} ms after SIGTERM ` +
      `(grace ${graceMs} ms + margin ${EXIT_MARGIN_MS} ms)`,
  );
  const warnings = server
    .output()
    .split('\n')
    .filter((line) => /WARN|ERROR/.test(line));
  if (warnings.length > 0)
    console.log(`- server log:\n${warnings.map((l) => `  ${l}`).join('\n')}`);

  const criteria: [string, boolean][] = [
    [
      'every call open at SIGTERM answered, none reset or hung',
      callOutcomes.every((call) =>
        call.stuck ? call.outcome === 'error-answer' : call.outcome === 'result',
      ),
    ],
    ['every stream ended with its end event', streamOutcomes.every((s) => s.outcome === 'ended')],
    ['calls arriving during the drain get 503', lateOutcomes.includes('shutting-down')],
    [
      'no late call reset',
      lateOutcomes.every((outcome) => outcome !== 'broken' && outcome !== 'hung'),
    ],
    ['exit within the grace + margin', exit !== undefined && exitMs <= graceMs + EXIT_MARGIN_MS],
    ['exit by the re-raised SIGTERM (or code 0)', code === 0 || signal === 'SIGTERM'],
  ];
  for (const [criterion, holds] of criteria)
    console.log(`- ${holds ? 'holds' : 'FAILS'}: ${criterion}`);
  const ok = criteria.every(([, holds]) => holds);
  return ok;
}

console.log(`shutdown under load, ${new Date().toISOString()}`);
let ok = process.argv.includes('--no-load') || (await runLoad());
if (!process.argv.includes('--no-redis')) ok = (await runRedisShutdown(ROOT)) && ok;
process.exitCode = ok ? 0 : 1;
