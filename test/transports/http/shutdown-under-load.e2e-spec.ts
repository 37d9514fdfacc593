// Graceful shutdown under load (issue 33), CI-sized: `app.close()` while 50 calls and 100
// streams are open on both wires, on Express and Fastify. Every call is answered, every
// stream gets its end (the final `subscriptions/listen` result, a 2025 stream's last
// chunk), calls arriving meanwhile get 503, and nothing is reset; a call still running past
// `http.shutdownTimeoutMs` is answered with a JSON-RPC error and its signal aborted.
// bench/shutdown.ts runs the full size (500 calls, 1,000 streams) with SIGTERM.
import { Injectable, Module, type Type } from '@nestjs/common';
import { McpContext, McpModule, McpTool, type McpCallContext } from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import {
  answerTo,
  exchange,
  messagesOf,
  modernRequest,
  openSession,
  openStream,
  sessionRequest,
  type Exchange,
} from '../../support/shutdown-clients.js';
import { deferred } from '../../fixtures/slow.tools.js';

const CALLS = 50;
const LISTENS = 80;
const SESSIONS = 20;
const WAIT = { timeout: 20_000, interval: 20 };

/** The calls the tool has seen: started, aborted, and the gate that lets them finish. */
const work = { started: 0, aborted: 0, release: deferred() };

@Injectable()
class ShutdownTools {
  @McpTool({ description: 'Works until the test lets it finish, or until its signal aborts.' })
  async gatedWork(@McpContext() ctx: McpCallContext): Promise<string> {
    work.started += 1;
    const aborted = new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await Promise.race([work.release.promise, aborted]);
    if (ctx.signal.aborted) {
      work.aborted += 1;
      throw new Error('aborted');
    }
    return 'done';
  }

  @McpTool({ description: 'Answers at once.' })
  quick(): string {
    return 'quick';
  }
}

function shutdownModule(shutdownTimeoutMs: number, leanPath = true): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'shutdown',
        version: '1.0.0',
        http: {
          shutdownTimeoutMs,
          leanPath,
          // One caller (no auth) holds every stream and session of the test.
          maxStreamsPerCaller: 1_000,
          legacySessions: { maxSessionsPerCaller: 1_000 },
        },
      }),
    ],
    providers: [ShutdownTools],
  })
  class ShutdownModule {}
  return ShutdownModule;
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** Starts `count` calls of `gated_work`, every other one on a 2025 session. */
function startCalls(url: URL, sessions: string[], count: number) {
  const params = { name: 'gated_work', arguments: {} };
  return range(count).map((index) => {
    const request =
      index % 2 === 0
        ? modernRequest('tools/call', params)
        : sessionRequest(sessions[index % sessions.length]!, 'tools/call', params);
    return { id: request.id, outcome: exchange(url, request) };
  });
}

const resets = (outcomes: Exchange[]) => outcomes.filter((outcome) => outcome.kind === 'reset');

let running: RunningApp | undefined;

afterEach(async () => {
  work.release.resolve();
  Object.assign(work, { started: 0, aborted: 0, release: deferred() });
  await running?.close();
  running = undefined;
});

describe.each(ADAPTERS)('shutdown under load on %s', (adapter) => {
  const logs = captureLogs();

  it('answers the calls in flight, ends every stream with its end event, refuses late calls with 503', async () => {
    running = await startApp(shutdownModule(60_000), { adapter, logger: logs });
    const { url, app } = running;
    const sessions = await Promise.all(range(SESSIONS).map(() => openSession(url)));
    const listens = await Promise.all(range(LISTENS).map(() => openStream(url)));
    const sessionStreams = await Promise.all(sessions.map((id) => openStream(url, id)));
    const calls = startCalls(url, sessions, CALLS);
    await expect.poll(() => work.started, WAIT).toBe(CALLS);

    const closing = app.close();
    // A call that arrives once the shutdown began is refused, while the others still run.
    let late: Exchange | undefined;
    let lateId = 0;
    await expect
      .poll(async () => {
        const request = modernRequest('tools/call', { name: 'quick', arguments: {} });
        lateId = request.id;
        late = await exchange(url, request);
        return late.kind === 'answered' && late.status;
      }, WAIT)
      .toBe(503);
    expect(messagesOf((late as { text: string }).text)[0]!.error.message).toMatch(
      /the MCP server is shutting down/,
    );
    expect(lateId).toBeGreaterThan(0);
    work.release.resolve();
    await closing;
    running = undefined;

    const answers = await Promise.all(
      calls.map(async (call) => answerTo(call.id, await call.outcome)),
    );
    expect(
      answers.filter((answer) => answer.message?.result?.content?.[0]?.text !== 'done'),
    ).toEqual([]);
    expect(resets(await Promise.all(calls.map((call) => call.outcome)))).toEqual([]);

    const listenEnds = await Promise.all(listens.map((stream) => stream.ended));
    expect(resets(listenEnds)).toEqual([]);
    // Each listen stream's last message is its final result, under the listen request's id.
    const finals = listenEnds.map((ended, index) => {
      const messages = ended.kind === 'answered' ? messagesOf(ended.text) : [];
      const last = messages.at(-1);
      return last?.id === listens[index]!.id && last?.result?.resultType;
    });
    expect(finals.filter((final) => final !== 'complete')).toEqual([]);
    // A 2025 stream has no final message: it ends with its last chunk, not a reset.
    expect(resets(await Promise.all(sessionStreams.map((stream) => stream.ended)))).toEqual([]);
    expect(work.aborted).toBe(0);
  });
});

describe.each(
  ADAPTERS.flatMap((adapter) => [
    { adapter, path: 'the fast path', leanPath: true },
    { adapter, path: 'the SDK path (http.leanPath: false)', leanPath: false },
  ]),
)('calls still running past http.shutdownTimeoutMs on $adapter, $path', ({ adapter, leanPath }) => {
  const logs = captureLogs();

  it('answers each with a JSON-RPC error for its id and aborts its signal', async () => {
    running = await startApp(shutdownModule(100, leanPath), { adapter, logger: logs });
    const { url, app } = running;
    const sessions = await Promise.all(range(2).map(() => openSession(url)));
    const calls = startCalls(url, sessions, 10);
    await expect.poll(() => work.started, WAIT).toBe(10);

    // Never released: the shutdown stops waiting for them.
    await app.close();
    running = undefined;

    const outcomes = await Promise.all(calls.map((call) => call.outcome));
    expect(resets(outcomes)).toEqual([]);
    const errors = calls.map((call, index) => answerTo(call.id, outcomes[index]!).message?.error);
    expect(
      errors.filter((error) => !/shut down before this request finished/.test(error?.message)),
    ).toEqual([]);
    // A 2026-07-28 call not yet answered gets a 503; a 2025 session's, an event on its stream.
    const modern = outcomes.filter((_, index) => index % 2 === 0);
    expect(modern.map((outcome) => outcome.kind === 'answered' && outcome.status)).toEqual(
      range(5).map(() => 503),
    );
    await expect.poll(() => work.aborted, WAIT).toBe(10);
    expect(logs.messages('warn').join('\n')).toContain('cut off 10 MCP request(s)');
  });
});
