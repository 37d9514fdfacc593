/**
 * What telemetry records of the tool limits (issue 33, item 4), with the real OpenTelemetry
 * SDK: a call stopped by its `timeoutMs` and one refused by its `concurrency` each carry an
 * `error.type` of their own on the span and on `mcp.server.operation.duration`; a call that
 * waited for a slot shows the wait on its span; a task run its `timeoutMs` stopped ends with
 * `error.type` `tool_timeout`. On the fast path and the SDK path.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LimitsProbe, toolLimitsAppModule } from '../fixtures/tool-limits.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { connectModernTaskClient } from '../support/task-clients.js';
import { InMemoryOtel } from './in-memory-otel.js';

const logs = captureLogs();

const PATHS = [
  { path: 'the fast path', http: {} },
  { path: 'the SDK path', http: { leanPath: false } },
] as const;

describe.each(PATHS)('telemetry of tool limits on $path', ({ http }) => {
  let otel: InMemoryOtel;
  let running: RunningApp;
  let probe: LimitsProbe;
  let client: ModernClient;

  beforeAll(async () => {
    otel = InMemoryOtel.install();
    running = await startApp(toolLimitsAppModule({ http }), { logger: logs });
    probe = running.app.get(LimitsProbe);
    client = new ModernClient(
      { name: 'limits-otel', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernTransport(running.url));
  });

  afterEach(() => {
    probe.reset();
    otel.spans.reset();
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
    await otel?.uninstall();
  });

  const call = (name: string) =>
    client.callTool({ name, arguments: {} }) as Promise<Record<string, any>>;

  /** The finished `tools/call` spans of a tool. */
  const callSpans = (tool: string) =>
    otel.spansOf('tools/call').filter((span) => span.attributes['gen_ai.tool.name'] === tool);

  it('records a timed-out call as error.type tool_timeout, on the span and the metric', async () => {
    expect((await call('stuck')).isError).toBe(true);
    await vi.waitFor(() => expect(callSpans('stuck')).toHaveLength(1));
    expect(callSpans('stuck')[0]!.attributes['error.type']).toBe('tool_timeout');
    const points = await otel.histogram('mcp.server.operation.duration');
    expect(
      points.some(
        (point) =>
          point.attributes['gen_ai.tool.name'] === 'stuck' &&
          point.attributes['error.type'] === 'tool_timeout',
      ),
    ).toBe(true);
  });

  it('records a refused call as tool_concurrency_limit, and the wait of a queued one', async () => {
    const calls = [1, 2, 3, 4].map(() => call('pooled'));
    const refused = await Promise.race(calls);
    expect(refused.isError).toBe(true);
    await vi.waitFor(() => expect(probe.startedOf('pooled')).toBe(2));
    probe.open();
    await Promise.all(calls);
    await vi.waitFor(() => expect(callSpans('pooled')).toHaveLength(4));
    const spans = callSpans('pooled');
    expect(spans.map((span) => span.attributes['error.type']).filter(Boolean)).toEqual([
      'tool_concurrency_limit',
    ]);
    const points = await otel.histogram('mcp.server.operation.duration');
    expect(
      points.some(
        (point) =>
          point.attributes['gen_ai.tool.name'] === 'pooled' &&
          point.attributes['error.type'] === 'tool_concurrency_limit',
      ),
    ).toBe(true);
    // The call that waited for a slot says so, with how long it waited (seconds).
    const queued = spans.filter((span) =>
      span.events.some((event) => event.name === 'mcp.tool.queued'),
    );
    expect(queued).toHaveLength(1);
    const wait = queued[0]!.attributes['mcp.tool.queue.wait_duration'];
    expect(typeof wait === 'number' && wait >= 0).toBe(true);
    expect(queued[0]!.events[0]!.attributes).toEqual({ 'mcp.tool.queue.wait_duration': wait });
  });

  it('ends the run of a task its timeoutMs stopped with error.type tool_timeout', async () => {
    const alice = await connectModernTaskClient(running.url);
    try {
      const execution = await alice.session.callTool(
        'stuck_task',
        {},
        {
          task: { preference: 'require' },
        },
      );
      expect(execution.kind).toBe('task');
      await (execution as Extract<typeof execution, { kind: 'task' }>).settle();
    } finally {
      await alice.close();
    }
    await vi.waitFor(() =>
      expect(
        otel.spans.getFinishedSpans().filter((span) => span.name === 'tasks/run stuck_task'),
      ).toHaveLength(1),
    );
    const [run] = otel.spans
      .getFinishedSpans()
      .filter((span) => span.name === 'tasks/run stuck_task');
    expect(run!.attributes['error.type']).toBe('tool_timeout');
  });
});
