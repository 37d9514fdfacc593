// The late caller of bench/shutdown.ts, in a process of its own so that its event loop is
// free: the main process holds 1,500 connections, and a request it "sends" while busy goes
// out hundreds of milliseconds later, onto a connection the server accepted and closed as
// idle meanwhile (a reset the server did not cause). Told `go` over IPC (right after
// SIGTERM), it sends one `tools/call` every 20 ms on a new connection until the server no
// longer listens, and replies with what each came to.
import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { callOutcomeOf, exchange, modernRequest, type CallOutcome } from './shutdown-clients.js';

export interface LateReport {
  readonly outcomes: CallOutcome[];
  /** The calls that were reset: when sent and when failed, in ms after `go`. */
  readonly resets: { sentMs: number; failedMs: number; code: string }[];
}

const port = Number(process.argv[2]);
const tool = process.argv[3]!;
const limitMs = Number(process.argv[4] ?? 30_000);

process.once('message', async () => {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const calls: Promise<CallOutcome>[] = [];
  const resets: LateReport['resets'] = [];
  // Set from the answers' callbacks: three refused connections say the server is gone.
  const refused = { count: 0 };
  while (refused.count < 3 && performance.now() - started < limitMs) {
    const request = modernRequest('tools/call', { name: tool, arguments: { ms: 10 } });
    const sentMs = since();
    calls.push(
      exchange({ port, path: '/mcp' }, 'POST', request.headers, request.body).then((answer) => {
        const outcome = callOutcomeOf(answer);
        if (outcome === 'not-listening') refused.count += 1;
        if (outcome === 'broken' && answer.kind === 'failed') {
          resets.push({ sentMs, failedMs: since(), code: answer.code });
        }
        return outcome;
      }),
    );
    await pause(20);
  }
  const report: LateReport = { outcomes: await Promise.all(calls), resets };
  process.send!(report, () => process.exit(0));
});
process.send!('ready');
