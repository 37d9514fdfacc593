import type { ToolExecution } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskGates, tasksAppModule } from '../fixtures/tasks.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectModernTaskClient,
  type ModernTaskClient,
  expectWellFormedWires,
} from '../support/task-clients.js';
import { TASKS_EXTENSION } from '../support/task-wire.js';

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

const POLL = { timeout: 10_000, interval: 20 };

/** Accepts every elicitation: `confirm: true`, and "Alice" for any other field. */
const acceptAll = (request: { params?: Record<string, any> }) => ({
  action: 'accept',
  content: Object.fromEntries(
    Object.keys(request.params?.requestedSchema?.properties ?? {}).map((field) => [
      field,
      field === 'confirm' ? true : 'Alice',
    ]),
  ),
});

let gateCount = 0;
const newGate = () => `gate-${++gateCount}`;

/** Calls a tool through the ext-tasks session, which must get a task. */
async function startTask(
  caller: ModernTaskClient,
  tool: string,
  args: Record<string, any> = {},
): Promise<ToolExecution<Record<string, any>> & { kind: 'task' }> {
  const execution = await caller.session.callTool<Record<string, any>>(tool, args, {
    task: { preference: 'require' },
  });
  expect(execution.kind).toBe('task');
  return execution as ToolExecution<Record<string, any>> & { kind: 'task' };
}

/** An acknowledgement without the `_meta` every 2026 result carries (serverInfo). */
const ackOf = ({ _meta, ...rest }: Record<string, any>) => rest;

/** The last CreateTaskResult the caller received. */
const lastCreated = (caller: ModernTaskClient) =>
  caller.wire.answersTo('tools/call').at(-1)!.result as Record<string, any>;

describe.each(ADAPTERS)('MCP tasks on 2026-07-28, ext-tasks client (%s)', (adapter) => {
  let running: RunningApp;
  let gates: TaskGates;
  let alice: ModernTaskClient;

  beforeAll(async () => {
    running = await startApp(tasksAppModule(), { adapter, logger: logs });
    gates = running.app.get(TaskGates);
    alice = await connectModernTaskClient(running.url, { token: 'alice', answer: acceptAll });
  });

  afterEach(async () => {
    // Every task object the server sent matched the ext-tasks V2 schemas.
    await expectWellFormedWires([alice]);
    alice.asked.splice(0);
  });

  afterAll(async () => {
    await alice?.close();
    await running?.close();
  });

  const get = (taskId: string) => alice.request('tasks/get', { taskId });

  it('advertises the extension in server/discover, without the 2025 tasks capability', async () => {
    const capabilities = alice.client.getServerCapabilities() as Record<string, any>;
    expect(capabilities.extensions[TASKS_EXTENSION]).toEqual({});
    expect(capabilities).not.toHaveProperty('tasks');
    expect(alice.session.capabilities).toMatchObject({
      execution: true,
      cancellation: true,
      inputResponses: true,
    });
    const { tools } = await alice.client.listTools();
    expect(tools.find((tool) => tool.name === 'report')).not.toHaveProperty('execution');
  });

  it('answers an optional tool in the request when the client did not declare the extension', async () => {
    const gate = newGate();
    gates.open(gate);
    const { message } = await alice.request(
      'tools/call',
      { name: 'report', arguments: { gate } },
      { extension: false },
    );
    expect(message.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: `Report ${gate} ready` }],
    });
    const plain = await alice.client.callTool({ name: 'report', arguments: { gate } });
    expect(plain.content).toEqual([{ type: 'text', text: `Report ${gate} ready` }]);
  });

  it('shows the status message while the task works, then inlines the result', async () => {
    const gate = newGate();
    const execution = await startTask(alice, 'report', { gate });
    const created = lastCreated(alice);
    expect(created).toMatchObject({
      resultType: 'task',
      taskId: execution.handle.taskId,
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    const task = alice.session.task(execution.handle.taskId);
    await vi.waitFor(async () => {
      expect(await task.snapshot()).toMatchObject({
        status: 'working',
        statusMessage: 'Collecting rows',
      });
    }, POLL);
    gates.open(gate);
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: `Report ${gate} ready` }] },
    });
    const { message } = await get(execution.handle.taskId);
    expect(message.result).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { content: [{ type: 'text', text: `Report ${gate} ready` }] },
    });
  });

  it('turns reportProgress into the status message', async () => {
    const gate = newGate();
    const execution = await startTask(alice, 'reindex', { gate });
    const task = alice.session.task(execution.handle.taskId);
    await vi.waitFor(async () => {
      expect((await task.snapshot()).statusMessage).toContain('Indexing products');
    }, POLL);
    gates.open(gate);
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'reindexed' }] },
    });
  });

  it('cancels: the method sees ctx.signal abort and the task ends cancelled, whatever it returns', async () => {
    const gate = newGate();
    const execution = await startTask(alice, 'export_catalog', { gate });
    await gates.started(gate);
    await execution.cancel();
    expect(alice.wire.answersTo('tasks/cancel').at(-1)).toMatchObject({
      result: { resultType: 'complete' },
    });
    await gates.abortSeen(gate);
    await gates.returned(gate);
    expect((await execution.result()).status).toBe('cancelled');
    const { message } = await get(execution.handle.taskId);
    expect(message.result).toMatchObject({ resultType: 'complete', status: 'cancelled' });
    expect(message.result).not.toHaveProperty('result');
    // Cancelling a finished task is acknowledged, not refused.
    const again = await alice.request('tasks/cancel', { taskId: execution.handle.taskId });
    expect(ackOf(again.message.result)).toEqual({ resultType: 'complete' });
  });

  it('answers a question asked inside the task through tasks/update, then completes', async () => {
    const execution = await startTask(alice, 'purge', { filename: 'old.csv' });
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Deleted old.csv' }] },
    });
    expect(alice.asked).toEqual([
      expect.objectContaining({
        request: expect.objectContaining({ kind: 'elicitation' }),
        context: expect.objectContaining({
          scope: 'task',
          delivery: 'task-update',
          taskId: execution.handle.taskId,
          inputId: 'confirm',
        }),
      }),
    ]);
    const asking = alice.wire
      .answersTo('tasks/get')
      .map((answer) => answer.result)
      .find((task) => task?.taskId === execution.handle.taskId && task.status === 'input_required');
    expect(asking.inputRequests.confirm).toMatchObject({ method: 'elicitation/create' });
    expect(ackOf(alice.wire.answersTo('tasks/update').at(-1)!.result)).toEqual({
      resultType: 'complete',
    });
  });

  it('keeps the unanswered question after a partial answer, and ignores unknown keys', async () => {
    const created = await alice.request('tools/call', { name: 'register_user', arguments: {} });
    const { taskId } = created.message.result;
    await vi.waitFor(async () => {
      const { message } = await get(taskId);
      expect(message.result.status).toBe('input_required');
      expect(Object.keys(message.result.inputRequests).toSorted()).toEqual(['name', 'plan']);
    }, POLL);
    const first = await alice.request('tasks/update', {
      taskId,
      inputResponses: {
        name: { action: 'accept', content: { name: 'Ada' } },
        'unknown-key': { ignored: true },
      },
    });
    expect(ackOf(first.message.result)).toEqual({ resultType: 'complete' });
    // The store changed before the acknowledgement: the next read shows one key left.
    const between = await get(taskId);
    expect(between.message.result.status).toBe('input_required');
    expect(Object.keys(between.message.result.inputRequests)).toEqual(['plan']);
    const second = await alice.request('tasks/update', {
      taskId,
      inputResponses: { plan: { action: 'accept', content: { plan: 'pro' } } },
    });
    expect(ackOf(second.message.result)).toEqual({ resultType: 'complete' });
    await vi.waitFor(async () => {
      const { message } = await get(taskId);
      expect(message.result).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'Registered Ada on pro' }] },
      });
    }, POLL);
  });

  it('asks a question in the request before the task exists, then runs the task with the answer', async () => {
    const execution = await startTask(alice, 'greet_later');
    const { outcome } = await execution.settle();
    expect(outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello, Alice, from a task' }] },
    });
    expect(alice.asked.map(({ context }) => context.scope)).toEqual(['request']);
    const rounds = alice.wire.exchanges
      .filter((e) => e.method === 'tools/call' && e.params.name === 'greet_later')
      .map((e) => e.message.result);
    expect(rounds.map((round) => round.resultType)).toEqual(['input_required', 'task']);
    expect(rounds[0]).not.toHaveProperty('taskId');
    expect(rounds[1]).not.toHaveProperty('requestState');
    expect(rounds[1]).not.toHaveProperty('inputRequests');
  });

  it('ends an isError result completed, and a thrown ProtocolError failed with its error', async () => {
    const failing = await startTask(alice, 'failing_job');
    expect((await failing.settle()).outcome).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'The export disk is full' }] },
    });
    const broken = await startTask(alice, 'protocol_job');
    const { outcome } = await broken.settle();
    expect(outcome).toMatchObject({ status: 'failed', error: { code: -32050 } });
    const { message } = await get(broken.handle.taskId);
    expect(message.result).toMatchObject({
      status: 'failed',
      error: { code: -32050, message: 'Upstream unavailable', data: { upstream: 'billing' } },
    });
    expect(message.result).not.toHaveProperty('result');
  });

  it('refuses a required tool with -32021 to a client without the extension, and runs it as a task', async () => {
    const { message } = await alice.request(
      'tools/call',
      { name: 'required_job', arguments: {} },
      { extension: false },
    );
    expect(message.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    await expect(alice.client.callTool({ name: 'required_job' })).rejects.toMatchObject({
      code: -32021,
    });
    const execution = await startTask(alice, 'required_job');
    expect((await execution.settle()).outcome).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'required done' }] },
    });
  });

  it('checks the extension before the task id on tasks/*, and answers an unknown id with -32602', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = { taskId: 'gate-test', inputResponses: {} };
      const without = await alice.request(method, params, { extension: false });
      expect(without.message.error?.code, method).toBe(-32021);
      const unknown = await alice.request(method, params);
      expect(unknown.message.error?.code, method).toBe(-32602);
    }
  });

  it('has no tasks/result and no tasks/list (-32601)', async () => {
    const gate = newGate();
    gates.open(gate);
    const execution = await startTask(alice, 'report', { gate });
    await execution.settle();
    for (const [method, params] of [
      ['tasks/result', { taskId: execution.handle.taskId }],
      ['tasks/list', {}],
    ] as const) {
      const { message } = await alice.request(method, params);
      expect(message.error?.code, method).toBe(-32601);
    }
  });
});
