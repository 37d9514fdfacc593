/**
 * Stuck tools (issue 33, item 4): `@McpTool({ timeoutMs })` and the module's default stop a
 * call that runs too long, aborting the method's `ctx.signal` and answering the caller at
 * once; `@McpTool({ concurrency })` bounds how many calls of a tool run, queues a few and
 * refuses the rest with a retryable error naming the limit. Over real HTTP clients of both
 * revisions, on the fast path (the default `http.leanPath`) and the SDK path.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TIMEOUT_MS,
  LimitsProbe,
  TOOL_TIMEOUT_MS,
  toolLimitsAppModule,
} from '../fixtures/tool-limits.fixture.js';
import { ToolLimiter } from '../../lib/execution/tool-limits.js';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectLegacyTaskClient,
  connectModernTaskClient,
  expectWellFormedWires,
} from '../support/task-clients.js';

const logs = captureLogs();

interface LimitsClient {
  call(name: string, options?: { signal?: AbortSignal }): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/**
 * How a client of the era cancels a call. A stateless 2025 client (the default: no
 * `http.legacySessions`) sends `notifications/cancelled` in a request of its own, which no
 * call of the server is part of: it cancels by closing its connection. A 2026 client
 * aborts the call's request.
 */
type Cancellable = (
  client: LimitsClient,
  name: string,
) => { result: Promise<unknown>; cancel(): Promise<void> };

const byClosing: Cancellable = (client, name) => ({
  result: client.call(name),
  cancel: () => client.close(),
});

const byAborting: Cancellable = (client, name) => {
  const controller = new AbortController();
  return {
    result: client.call(name, { signal: controller.signal }),
    cancel: async () => controller.abort(),
  };
};

type Connect = (url: URL, caller?: string) => Promise<LimitsClient>;

const headersOf = (caller?: string): Record<string, string> =>
  caller ? { 'x-caller': caller } : {};

const connectLegacy: Connect = async (url, caller) => {
  const client = new LegacyClient({ name: 'limits-v1', version: '1.0.0' });
  await client.connect(new LegacyTransport(url, { requestInit: { headers: headersOf(caller) } }));
  return {
    call: (name, options) =>
      client.callTool({ name, arguments: {} }, undefined, options) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
};

const connectModern: Connect = async (url, caller) => {
  const client = new ModernClient(
    { name: 'limits-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(url, { requestInit: { headers: headersOf(caller) } }));
  return {
    call: (name, options) =>
      client.callTool({ name, arguments: {} }, options) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
};

const ERAS = [
  { era: '2025-11-25 (v1 client)', connect: connectLegacy, cancellable: byClosing },
  { era: '2026-07-28 (v2 client)', connect: connectModern, cancellable: byAborting },
] as const;

const PATHS = [
  { path: 'the fast path', http: {} },
  { path: 'the SDK path', http: { leanPath: false } },
] as const;

const textOf = (result: Record<string, any>): string => result.content?.[0]?.text;

const timedOut = (tool: string, ms: number) =>
  `Tool "${tool}" timed out after ${ms} ms and was stopped; it may have done part of its work. ` +
  'Check its effects before calling it again, or ask for less at once.';

describe.each(PATHS)('tool limits on $path', ({ http }) => {
  let running: RunningApp;
  let probe: LimitsProbe;
  const clients: LimitsClient[] = [];

  beforeAll(async () => {
    running = await startApp(toolLimitsAppModule({ http }), { logger: logs });
    probe = running.app.get(LimitsProbe);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    probe.reset();
  });

  afterAll(async () => {
    await running?.close();
  });

  describe.each(ERAS)('$era', ({ connect, cancellable }) => {
    const connected = async (caller?: string) => {
      const client = await connect(running.url, caller);
      clients.push(client);
      return client;
    };

    it('stops a call past its timeoutMs: the caller gets a tool error, the method sees ctx.signal abort', async () => {
      const client = await connected();
      const result = await client.call('stuck');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(timedOut('stuck', TOOL_TIMEOUT_MS));
      expect(result.structuredContent).toEqual({
        error: 'tool_timeout',
        timeoutMs: TOOL_TIMEOUT_MS,
      });
      expect(probe.aborts).toEqual([
        {
          tool: 'stuck',
          name: 'ToolTimeoutError',
          message: `Tool "stuck" timed out after ${TOOL_TIMEOUT_MS} ms.`,
        },
      ]);
    });

    it("applies the server's default timeout, which timeoutMs: false turns off", async () => {
      const client = await connected();
      const unbounded = client.call('unbounded');
      await vi.waitFor(() => expect(probe.startedOf('unbounded')).toBe(1));
      // `inherits` starts after `unbounded` and is stopped by the default: `unbounded`
      // has run longer than the default by then, and still runs.
      const inherits = await client.call('inherits');
      expect(textOf(inherits)).toBe(timedOut('inherits', DEFAULT_TIMEOUT_MS));
      expect(probe.aborts.map((abort) => abort.tool)).toEqual(['inherits']);
      probe.open();
      expect(textOf(await unbounded)).toBe('unbounded done');
    });

    it('runs max calls, queues up to queue, and refuses the rest with a retryable error', async () => {
      const client = await connected();
      const calls = [1, 2, 3, 4].map(() => client.call('pooled'));
      // Two run, one waits: the fourth is refused at once.
      const refused = await Promise.race(calls);
      await vi.waitFor(() => expect(probe.startedOf('pooled')).toBe(2));
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'Tool "pooled" is busy: 2 calls running (concurrency.max 2) and 1 waiting ' +
          '(concurrency.queue 1); retry shortly. Retry after 1 seconds.',
      );
      expect(refused.structuredContent).toEqual({
        error: 'tool_concurrency_limit',
        limit: 'concurrency.max',
        value: 2,
        running: 2,
        waiting: 1,
        queue: 1,
        retryAfterSeconds: 1,
      });
      probe.open();
      const results = await Promise.all(calls);
      expect(results.filter((result) => result.isError)).toEqual([refused]);
      expect(results.filter((result) => !result.isError).map(textOf)).toEqual([
        'pooled done',
        'pooled done',
        'pooled done',
      ]);
      // The waiting call ran once a slot was free.
      expect(probe.startedOf('pooled')).toBe(3);
    });

    it('counts perCaller per caller: one caller at its limit does not hold up another', async () => {
      const alice = await connected('alice');
      const bob = await connected('bob');
      const first = alice.call('personal');
      await vi.waitFor(() => expect(probe.startedOf('personal')).toBe(1));
      const again = await alice.call('personal');
      expect(textOf(again)).toBe(
        'Tool "personal" is busy for this caller: 1 of its calls running ' +
          '(concurrency.perCaller 1) and 0 waiting; retry shortly. Retry after 1 seconds.',
      );
      expect(again.structuredContent).toMatchObject({
        error: 'tool_concurrency_limit',
        limit: 'concurrency.perCaller',
        retryAfterSeconds: 1,
      });
      // Bob's call runs while Alice's still does.
      const bobs = bob.call('personal');
      await vi.waitFor(() => expect(probe.startedOf('personal')).toBe(2));
      probe.open();
      expect(textOf(await first)).toBe('personal done');
      expect(textOf(await bobs)).toBe('personal done');
    });

    it('takes a waiting call whose client cancels out of the queue', async () => {
      const acquire = vi.spyOn(ToolLimiter.prototype, 'acquire');
      const client = await connected();
      const first = client.call('single');
      await vi.waitFor(() => expect(probe.startedOf('single')).toBe(1));
      const limiter = acquire.mock.contexts.at(-1) as ToolLimiter;
      const waiting = cancellable(await connected(), 'single');
      await vi.waitFor(() => expect(limiter.load).toEqual({ running: 1, waiting: 1 }));
      await waiting.cancel();
      await expect(waiting.result).rejects.toThrow();
      await vi.waitFor(() => expect(limiter.load).toEqual({ running: 1, waiting: 0 }));
      // The queue (concurrency: 1 queues one) has room again: the next call waits, then runs.
      const next = client.call('single');
      await vi.waitFor(() => expect(limiter.load).toEqual({ running: 1, waiting: 1 }));
      probe.open();
      expect(textOf(await first)).toBe('single done');
      expect(textOf(await next)).toBe('single done');
      // The cancelled call never reached the method.
      expect(probe.startedOf('single')).toBe(2);
      expect(limiter.load).toEqual({ running: 0, waiting: 0 });
      acquire.mockRestore();
    });
  });
});

describe('a task tool past its timeoutMs', () => {
  let running: RunningApp;
  let probe: LimitsProbe;
  const message = timedOut('stuck_task', TOOL_TIMEOUT_MS);

  beforeAll(async () => {
    running = await startApp(toolLimitsAppModule(), { logger: logs });
    probe = running.app.get(LimitsProbe);
  });

  afterEach(() => probe.reset());

  afterAll(async () => {
    await running?.close();
  });

  it('fails the task with the reason, and aborts the method (2026-07-28, ext-tasks client)', async () => {
    const alice = await connectModernTaskClient(running.url);
    try {
      const execution = await alice.session.callTool<Record<string, any>>(
        'stuck_task',
        {},
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      const task = execution as Extract<typeof execution, { kind: 'task' }>;
      const { outcome } = await task.settle();
      const error = { code: -32603, message, data: { error: 'tool_timeout' } };
      expect(outcome).toMatchObject({ status: 'failed', error });
      const got = await alice.request('tasks/get', { taskId: task.handle.taskId });
      expect(got.message.result).toMatchObject({ status: 'failed', statusMessage: message, error });
      expect(probe.aborts).toEqual([
        {
          tool: 'stuck_task',
          name: 'ToolTimeoutError',
          message: `Tool "stuck_task" timed out after ${TOOL_TIMEOUT_MS} ms.`,
        },
      ]);
      await expectWellFormedWires([alice]);
    } finally {
      await alice.close();
    }
  });

  it('fails the task with the reason (2025-11-25, v1 client)', async () => {
    const alice = await connectLegacyTaskClient(running.url);
    try {
      const { task } = await alice.client.request(
        { method: 'tools/call', params: { name: 'stuck_task', arguments: {} } },
        CreateTaskResultSchema,
        { task: {} },
      );
      await vi.waitFor(
        async () =>
          expect(await alice.client.experimental.tasks.getTask(task.taskId)).toMatchObject({
            status: 'failed',
            statusMessage: message,
          }),
        { timeout: 5_000, interval: 20 },
      );
      await expect(
        alice.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
      ).rejects.toMatchObject({ code: -32603, message: expect.stringContaining(message) });
      expect(probe.aborts.map((abort) => abort.name)).toEqual(['ToolTimeoutError']);
      await expectWellFormedWires([alice]);
    } finally {
      await alice.close();
    }
  });
});
