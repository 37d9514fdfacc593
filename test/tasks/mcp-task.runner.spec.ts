import {
  inputRequired,
  ProtocolError,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpCall } from '../../lib/execution/mcp-call.js';
import type { InvocationObserver } from '../../lib/execution/mcp-invocation.js';
import type { RegisteredTool } from '../../lib/registry/registered-primitives.js';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task.store.js';
import { McpTaskRunner, type TaskTiming } from '../../lib/tasks/mcp-task.runner.js';
import { captureLogs } from '../support/captured-logs.js';
import { toolCall } from '../support/fake-call.js';

type Method = (
  call: McpCall,
  observer: InvocationObserver,
) => Promise<CallToolResult | InputRequiredResult>;

/** A tool whose invoker is `method`: it tells the runner itself when the method is reached. */
const toolOf = (method: Method): RegisteredTool & { invoke: ReturnType<typeof vi.fn> } => ({
  key: 'export_catalog',
  definition: { name: 'export_catalog', inputSchema: { type: 'object' } },
  isVisible: Object.assign(async () => true, { guarded: false }),
  task: { mode: 'optional' },
  invoke: vi.fn((call: McpCall, observer: InvocationObserver = {}) => method(call, observer)),
});

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const HOUR: TaskTiming = { ttlMs: 3_600_000, pollIntervalMs: 500 };
const OWNER = 'user:alice';

/** A promise the test settles, for a method to wait on. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

/** Resolves when `signal` aborts, with its reason's message. */
const abortOf = (signal: AbortSignal) =>
  new Promise<string>((resolve) =>
    signal.addEventListener('abort', () => resolve((signal.reason as Error).message), {
      once: true,
    }),
  );

const confirm = inputRequired({
  inputRequests: {
    confirm: inputRequired.elicit({
      message: 'Export everything?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    }),
  },
});

/** A method that waits until its signal aborts, and reports why. */
const waitingTool = () => {
  const reason = gate<string>();
  const tool = toolOf(async (call, observer) => {
    observer.methodReached?.();
    reason.open(await abortOf(call.signal));
    return text('too late');
  });
  return { tool, reason: reason.opened };
};

describe('McpTaskRunner', () => {
  const logs = captureLogs();
  let store: InMemoryTaskStore;
  let runner: McpTaskRunner;

  let previousLogger: unknown;

  beforeEach(() => {
    // Nest's logger is one per process: the runner's lines come here, then it is given back.
    previousLogger = (Logger as unknown as { staticInstanceRef?: unknown }).staticInstanceRef;
    Logger.overrideLogger(logs);
    store = new InMemoryTaskStore();
    runner = new McpTaskRunner(store);
  });
  afterEach(async () => {
    await runner.close();
    await store.close();
    Logger.overrideLogger((previousLogger as never) ?? false);
  });

  const tasksOf = async () => (await store.list(OWNER)).tasks;

  const startTask = async (tool: RegisteredTool, timing: TaskTiming = HOUR) => {
    const started = await runner.start(toolCall('export_catalog'), tool, OWNER, timing);
    return (started as { task: { taskId: string } }).task.taskId;
  };

  describe('a call that never reaches its method', () => {
    it('is answered in the request and never becomes a task (a guard refused it)', async () => {
      const refused = { ...text('Forbidden (403): Forbidden resource'), isError: true };
      const tool = toolOf(async () => refused);
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      expect(started).toEqual({ kind: 'answered', result: refused });
      expect(await tasksOf()).toEqual([]);
    });

    it('rejects with what the pipeline threw, storing nothing', async () => {
      const tool = toolOf(async () => {
        throw new ProtocolError(-32602, 'bad params');
      });
      await expect(runner.start(toolCall('export_catalog'), tool, OWNER, HOUR)).rejects.toThrow(
        'bad params',
      );
      expect(await tasksOf()).toEqual([]);
    });
  });

  describe('a call that reaches its method', () => {
    it('becomes a working task of its owner, then records the outcome when the method ends', async () => {
      const work = gate();
      const tool = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        await work.opened;
        return text('exported');
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      expect(started.kind).toBe('task');
      const { task } = started as Extract<typeof started, { kind: 'task' }>;
      expect(task).toMatchObject({
        status: 'working',
        owner: OWNER,
        toolName: 'export_catalog',
        ttlMs: 3_600_000,
        pollIntervalMs: 500,
      });
      expect((await store.get(task.taskId))?.status).toBe('working');

      work.open();
      await vi.waitFor(async () =>
        expect(await store.get(task.taskId)).toMatchObject({
          status: 'completed',
          result: text('exported'),
        }),
      );
    });

    it('runs the method with a task call: its id, and a signal that is not the request’s', async () => {
      let seen: McpCall | undefined;
      const tool = toolOf(async (call, observer) => {
        seen = call;
        observer.methodReached?.();
        await sleep(5);
        return text('ok');
      });
      const request = toolCall('export_catalog');
      const started = await runner.start(request, tool, OWNER, HOUR);
      expect(seen?.task?.id).toBe((started as { task: { taskId: string } }).task.taskId);
      expect(seen?.signal).not.toBe(request.signal);
      expect(request.task).toBeUndefined();
    });

    it('answers with the finished task when the method ends before it first waits', async () => {
      const tool = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        return text('quick');
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      expect(started).toMatchObject({ kind: 'task', task: { status: 'completed' } });
    });

    it('keeps the status the method set before the task was stored', async () => {
      const work = gate();
      const tool = toolOf(async (call, observer) => {
        observer.methodReached?.();
        await call.reportProgress(1, 3, 'Reading');
        await work.opened;
        return text('ok');
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      expect(started).toMatchObject({ task: { statusMessage: 'Reading (1/3)' } });
      work.open();
    });

    it('records a JSON-RPC error the method throws as a failed task', async () => {
      const tool = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        await sleep(5);
        throw new ProtocolError(-32602, 'no such catalog', { id: 7 });
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      const { taskId } = (started as { task: { taskId: string } }).task;
      await vi.waitFor(async () =>
        expect(await store.get(taskId)).toMatchObject({
          status: 'failed',
          error: { code: -32602, message: 'no such catalog', data: { id: 7 } },
        }),
      );
    });

    it('records anything else as an internal error, its detail only in the log', async () => {
      const tool = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        await sleep(5);
        throw new TypeError('secret detail');
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      const { taskId } = (started as { task: { taskId: string } }).task;
      await vi.waitFor(async () => expect((await store.get(taskId))?.status).toBe('failed'));
      const { error } = (await store.get(taskId))!;
      expect(error?.code).toBe(-32603);
      expect(error?.message).not.toContain('secret detail');
      logs.expectError('A task failed unexpectedly', 'secret detail');
    });
  });

  describe('questions', () => {
    it('asks a question the method asks before it first waits in the request, not as a task', async () => {
      const tool = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        return confirm;
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      expect(started).toEqual({ kind: 'answered', result: confirm });
      expect(await tasksOf()).toEqual([]);
    });

    it('parks the task on a later question, and calls the method again with the answers', async () => {
      const answers: unknown[] = [];
      const tool = toolOf(async (call, observer) => {
        observer.methodReached?.();
        await sleep(5);
        const ok = call.acceptedInput<{ ok: boolean }>('confirm');
        answers.push({ ok, state: call.requestState() });
        if (!ok) {
          return inputRequired({
            inputRequests: confirm.inputRequests,
            requestState: await call.mintRequestState({ round: 1 }),
          });
        }
        return text(ok.ok ? 'exported' : 'kept');
      });
      const started = await runner.start(toolCall('export_catalog'), tool, OWNER, HOUR);
      const { taskId } = (started as { task: { taskId: string } }).task;
      await vi.waitFor(async () =>
        expect(await store.get(taskId)).toMatchObject({
          status: 'input_required',
          inputRequests: confirm.inputRequests,
        }),
      );

      await store.resolveInput(taskId, { confirm: { action: 'accept', content: { ok: true } } });
      await vi.waitFor(async () =>
        expect(await store.get(taskId)).toMatchObject({
          status: 'completed',
          result: text('exported'),
        }),
      );
      // The second round read the task's answers and the state its first round minted.
      expect(answers).toEqual([
        { ok: undefined, state: undefined },
        { ok: { ok: true }, state: { round: 1 } },
      ]);
    });
  });

  describe('ending a running task early', () => {
    it('aborts the method’s signal on cancel, and the task stays cancelled', async () => {
      const { tool, reason } = waitingTool();
      const taskId = await startTask(tool);
      await store.requestCancel(taskId);
      expect(await reason).toBe('The task was cancelled.');
      await nextMacrotask();
      expect((await store.get(taskId))?.status).toBe('cancelled');
    });

    it('aborts the method when the TTL runs out, and records the task as cancelled', async () => {
      // The store's clock stands still, so that it still shows the task the runner ended
      // (a store reading the real clock answers an expired task as unknown).
      await runner.close();
      await store.close();
      store = new InMemoryTaskStore({ now: () => Date.parse('2026-03-01T10:00:00.000Z') });
      runner = new McpTaskRunner(store);
      const { tool, reason } = waitingTool();
      const taskId = await startTask(tool, { ttlMs: 40 });
      // The method learns why: the expiry, not the cancel the store records for it.
      expect(await reason).toBe('The task expired (its ttlMs ran out).');
      await vi.waitFor(async () => expect((await store.get(taskId))?.status).toBe('cancelled'));
    });

    it('never aborts a task without a TTL by time', async () => {
      const { tool, reason } = waitingTool();
      const taskId = await startTask(tool, { ttlMs: null });
      const outcome = await Promise.race([reason, sleep(60, 'still running')]);
      expect(outcome).toBe('still running');
      expect((await store.get(taskId))?.status).toBe('working');
    });

    it('cancels every running task at close(), leaving finished ones as they are', async () => {
      const { tool, reason } = waitingTool();
      const running = await startTask(tool);
      const quick = toolOf(async (_call, observer) => {
        observer.methodReached?.();
        return text('done');
      });
      const done = await startTask(quick);
      await runner.close();
      expect(await reason).toBe('The server shut down.');
      // Any instance sharing the store tells the client why (docs/scale-out.md).
      expect(await store.get(running)).toMatchObject({
        status: 'cancelled',
        statusMessage:
          'The server running this task shut down before it finished; start the task again.',
      });
      expect((await store.get(done))?.status).toBe('completed');
      expect((await store.get(done))?.statusMessage).toBeUndefined();
    });
  });
});
