import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTE_TTL_MS, SHORT_TTL_MS, TaskGates, tasksAppModule } from '../fixtures/tasks.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectLegacyTaskClient,
  type LegacyTaskClient,
  expectWellFormedWires,
} from '../support/task-clients.js';
import { RELATED_TASK_META } from '../support/task-wire.js';

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

const POLL = { timeout: 10_000, interval: 20 };
/** Tasks per `tasks/list` page in this app (the module's `pageSize`). */
const PAGE_SIZE = 2;

let gateCount = 0;
const newGate = () => `legacy-gate-${++gateCount}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `tool` as a task (`params.task`), the way the v1 SDK client does. */
async function createTask(caller: LegacyTaskClient, name: string, args = {}) {
  const { task } = await caller.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: {} },
  );
  return task;
}

const resultOf = (caller: LegacyTaskClient, taskId: string) =>
  caller.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);

/** Every task `tasks/list` shows the caller, and how many pages it took. */
async function listAll(caller: LegacyTaskClient) {
  const ids: string[] = [];
  let pages = 0;
  let cursor: string | undefined;
  do {
    const page = await caller.client.experimental.tasks.listTasks(cursor);
    expect(page.tasks.length).toBeLessThanOrEqual(PAGE_SIZE);
    ids.push(...page.tasks.map((task) => task.taskId));
    pages += 1;
    cursor = page.nextCursor;
  } while (cursor);
  return { ids, pages };
}

describe.each(ADAPTERS)('MCP tasks on 2025-11-25, v1 SDK client (%s)', (adapter) => {
  let running: RunningApp;
  let gates: TaskGates;
  let alice: LegacyTaskClient;
  let bob: LegacyTaskClient;

  beforeAll(async () => {
    running = await startApp(tasksAppModule({ pageSize: PAGE_SIZE }), { adapter, logger: logs });
    gates = running.app.get(TaskGates);
    alice = await connectLegacyTaskClient(running.url, 'alice');
    bob = await connectLegacyTaskClient(running.url, 'bob');
  });

  afterEach(async () => {
    // Every task object the server sent matched the ext-tasks V1 schemas.
    await expectWellFormedWires([alice, bob]);
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await running?.close();
  });

  const getTask = (taskId: string, caller = alice) =>
    caller.client.experimental.tasks.getTask(taskId);

  it('announces tasks in initialize and execution.taskSupport on each tool', async () => {
    expect(alice.client.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const tools: Array<{ name: string; execution?: { taskSupport?: string } }> = [];
    let cursor: string | undefined;
    do {
      const page = await alice.client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const support = (name: string) =>
      tools.find((tool) => tool.name === name)?.execution?.taskSupport ?? 'forbidden';
    expect(support('report')).toBe('optional');
    expect(support('required_job')).toBe('required');
    expect(support('short_lived')).toBe('required');
    expect(support('ping')).toBe('forbidden');
  });

  it('answers an optional tool in the request when the call has no params.task', async () => {
    const gate = newGate();
    gates.open(gate);
    const result = await alice.client.callTool({ name: 'report', arguments: { gate } });
    expect(result).not.toHaveProperty('task');
    expect(result.content).toEqual([{ type: 'text', text: `Report ${gate} ready` }]);
  });

  it('streams a task: created, its status message while it works, then the result', async () => {
    const gate = newGate();
    const messages: Array<Record<string, any>> = [];
    const stream = (async () => {
      for await (const message of alice.client.experimental.tasks.callToolStream(
        { name: 'report', arguments: { gate } },
        CallToolResultSchema,
        { task: {} },
      ))
        messages.push(message);
    })();
    await vi.waitFor(() => expect(messages[0]?.type).toBe('taskCreated'), POLL);
    const created = messages[0]!.task;
    expect(created).toMatchObject({ status: 'working', ttl: 3_600_000, pollInterval: 50 });
    await vi.waitFor(async () => {
      expect(await getTask(created.taskId)).toMatchObject({
        status: 'working',
        statusMessage: 'Collecting rows',
      });
    }, POLL);
    gates.open(gate);
    await stream;
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      result: { content: [{ type: 'text', text: `Report ${gate} ready` }] },
    });
  });

  it('turns reportProgress into the status message', async () => {
    const gate = newGate();
    const task = await createTask(alice, 'reindex', { gate });
    await vi.waitFor(async () => {
      expect((await getTask(task.taskId)).statusMessage).toContain('Indexing products');
    }, POLL);
    gates.open(gate);
    expect((await resultOf(alice, task.taskId)).content).toEqual([
      { type: 'text', text: 'reindexed' },
    ]);
  });

  it('holds tasks/result until the outcome, then answers it with the related-task meta', async () => {
    const gate = newGate();
    const task = await createTask(alice, 'report', { gate });
    let answered = false;
    const waiting = resultOf(alice, task.taskId).finally(() => (answered = true));
    await gates.started(gate);
    // A round trip after tasks/result went out: it is still waiting, the gate is shut.
    expect((await getTask(task.taskId)).status).toBe('working');
    expect(answered).toBe(false);
    gates.open(gate);
    const result = await waiting;
    expect(result.content).toEqual([{ type: 'text', text: `Report ${gate} ready` }]);
    expect(result._meta?.[RELATED_TASK_META]).toEqual({ taskId: task.taskId });
  });

  it('cancels: the method sees ctx.signal abort, the task ends cancelled, a second cancel is refused', async () => {
    const gate = newGate();
    const task = await createTask(alice, 'export_catalog', { gate });
    await gates.started(gate);
    const cancelled = await alice.client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    await gates.abortSeen(gate);
    await gates.returned(gate);
    expect((await getTask(task.taskId)).status).toBe('cancelled');
    await expect(alice.client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('shows an isError result as failed and returns it from tasks/result; a ProtocolError as its error', async () => {
    const failing = await createTask(alice, 'failing_job');
    await vi.waitFor(
      async () => expect((await getTask(failing.taskId)).status).toBe('failed'),
      POLL,
    );
    expect(await resultOf(alice, failing.taskId)).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The export disk is full' }],
    });
    const broken = await createTask(alice, 'protocol_job');
    await vi.waitFor(
      async () => expect((await getTask(broken.taskId)).status).toBe('failed'),
      POLL,
    );
    await expect(resultOf(alice, broken.taskId)).rejects.toMatchObject({
      code: -32050,
      message: expect.stringContaining('Upstream unavailable'),
    });
  });

  it('refuses a required tool without params.task with -32601, and runs it as a task', async () => {
    const { message } = await alice.request('tools/call', { name: 'required_job', arguments: {} });
    expect(message.error?.code).toBe(-32601);
    const task = await createTask(alice, 'required_job');
    expect((await resultOf(alice, task.taskId)).content).toEqual([
      { type: 'text', text: 'required done' },
    ]);
  });

  it('refuses params.task on a tool that never runs as a task with -32601', async () => {
    const { message } = await alice.request('tools/call', {
      name: 'ping',
      arguments: {},
      task: {},
    });
    expect(message.error?.code).toBe(-32601);
  });

  it("lists only the caller's own tasks, page by page", async () => {
    const gate = newGate();
    gates.open(gate);
    const mine = [];
    for (let i = 0; i < PAGE_SIZE + 1; i += 1)
      mine.push(await createTask(alice, 'report', { gate }));
    const theirs = await createTask(bob, 'report', { gate });
    const alices = await listAll(alice);
    expect(alices.ids).toEqual(expect.arrayContaining(mine.map((task) => task.taskId)));
    expect(alices.ids).not.toContain(theirs.taskId);
    expect(alices.pages).toBeGreaterThan(1);
    const bobs = await listAll(bob);
    expect(bobs.ids).toContain(theirs.taskId);
    expect(bobs.ids.filter((id) => alices.ids.includes(id))).toEqual([]);
  });

  it('refuses another caller with -32602 on get, result and cancel, leaving the task alone', async () => {
    const gate = newGate();
    const task = await createTask(alice, 'report', { gate });
    await gates.started(gate);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const { message } = await bob.request(method, { taskId: task.taskId });
      expect(message.error?.code, method).toBe(-32602);
    }
    await expect(getTask(task.taskId, bob)).rejects.toMatchObject({ code: -32602 });
    expect(gates.sawAbort(gate)).toBe(false);
    expect((await getTask(task.taskId)).status).toBe('working');
    gates.open(gate);
    expect((await resultOf(alice, task.taskId)).content).toEqual([
      { type: 'text', text: `Report ${gate} ready` },
    ]);
  });

  it('forgets a task when its TTL runs out: the method sees the abort, the id is unknown', async () => {
    const gate = newGate();
    const task = await createTask(alice, 'short_lived', { gate });
    expect(task.ttl).toBe(SHORT_TTL_MS);
    await gates.abortSeen(gate);
    await vi.waitFor(async () => {
      await expect(getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    }, POLL);
    const { message } = await alice.request('tasks/result', { taskId: task.taskId });
    expect(message.error?.code).toBe(-32602);
  });

  it('honours a shorter TTL the client asks for (params.task.ttl)', async () => {
    const gate = newGate();
    const { task } = await alice.client.request(
      { method: 'tools/call', params: { name: 'report', arguments: { gate } } },
      CreateTaskResultSchema,
      { task: { ttl: SHORT_TTL_MS } },
    );
    expect(task.ttl).toBe(SHORT_TTL_MS);
    await gates.abortSeen(gate);
    await vi.waitFor(async () => {
      await expect(getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    }, POLL);
  });

  it('keeps a finished task readable until its TTL, and only then forgets it', async () => {
    const task = await createTask(alice, 'quick_note');
    expect(task.ttl).toBe(NOTE_TTL_MS);
    const expiresAt = Date.parse(task.createdAt) + NOTE_TTL_MS;
    expect((await resultOf(alice, task.taskId)).content).toEqual([{ type: 'text', text: 'noted' }]);
    const finished = await getTask(task.taskId);
    expect(finished.status).toBe('completed');
    await sleep(500);
    expect(await getTask(task.taskId)).toEqual(finished);
    expect((await resultOf(alice, task.taskId)).content).toEqual([{ type: 'text', text: 'noted' }]);
    await vi.waitFor(async () => {
      await expect(getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    }, POLL);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
  });

  it('runs guards and validation before the task: a refused or invalid call never becomes one', async () => {
    const before = { admin: gates.callsOf('admin_report'), resize: gates.callsOf('resize') };
    const listed = (await listAll(bob)).ids;
    const refused = await bob.request('tools/call', {
      name: 'admin_report',
      arguments: {},
      task: {},
    });
    expect(refused.message.result).not.toHaveProperty('task');
    expect(refused.message.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Forbidden (403): Forbidden resource' }],
    });
    const invalid = await bob.request('tools/call', {
      name: 'resize',
      arguments: { width: 0 },
      task: {},
    });
    expect(invalid.message.result).not.toHaveProperty('task');
    expect(invalid.message.result).toMatchObject({
      isError: true,
      structuredContent: { error: 'invalid_arguments' },
    });
    expect((await listAll(bob)).ids).toEqual(listed);
    expect(gates.callsOf('admin_report')).toBe(before.admin);
    expect(gates.callsOf('resize')).toBe(before.resize);
  });

  it('applies interceptors to the detached run: the task result is the mapped one', async () => {
    const task = await createTask(alice, 'shout');
    expect((await resultOf(alice, task.taskId)).content).toEqual([
      { type: 'text', text: 'QUIET WORDS' },
    ]);
  });
});
