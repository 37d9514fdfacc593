import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTE_TTL_MS, SHORT_TTL_MS, TaskGates, tasksAppModule } from '../fixtures/tasks.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectModernTaskClient,
  type ModernTaskClient,
  expectWellFormedWires,
} from '../support/task-clients.js';

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

const POLL = { timeout: 10_000, interval: 20 };

let gateCount = 0;
const newGate = () => `access-gate-${++gateCount}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `tool` as a task through the caller's ext-tasks session. */
async function startTask(caller: ModernTaskClient, tool: string, args = {}) {
  const execution = await caller.session.callTool<Record<string, any>>(tool, args, {
    task: { preference: 'require' },
  });
  if (execution.kind !== 'task') throw new Error(`${tool} did not become a task`);
  return execution;
}

const createdOf = (caller: ModernTaskClient, taskId: string) =>
  caller.wire.answersTo('tools/call').find((answer) => answer.result?.taskId === taskId)!
    .result as Record<string, any>;

describe.each(ADAPTERS)(
  'who may see a task, how long it lives, what runs before it: 2026-07-28 (%s)',
  (adapter) => {
    let running: RunningApp;
    let gates: TaskGates;
    let alice: ModernTaskClient;
    let bob: ModernTaskClient;
    let admin: ModernTaskClient;

    beforeAll(async () => {
      running = await startApp(tasksAppModule(), { adapter, logger: logs });
      gates = running.app.get(TaskGates);
      [alice, bob, admin] = await Promise.all(
        ['alice', 'bob', 'admin'].map((token) => connectModernTaskClient(running.url, { token })),
      );
    });

    afterEach(async () => {
      // Every task object the server sent matched the ext-tasks V2 schemas.
      await expectWellFormedWires([alice, bob, admin]);
    });

    afterAll(async () => {
      for (const caller of [alice, bob, admin]) await caller?.close();
      await running?.close();
    });

    it('refuses another caller with -32602 on get, update and cancel, leaving the task alone', async () => {
      const gate = newGate();
      const execution = await startTask(alice, 'report', { gate });
      const { taskId } = execution.handle;
      await gates.started(gate);
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const { message } = await bob.request(method, {
          taskId,
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        });
        expect(message.error?.code, method).toBe(-32602);
        expect(JSON.stringify(message)).not.toContain('Collecting rows');
      }
      await expect(bob.session.task(taskId).snapshot()).rejects.toMatchObject({ code: -32602 });
      // Bob's cancel did nothing: the task still works for Alice.
      expect(gates.sawAbort(gate)).toBe(false);
      expect(await alice.session.task(taskId).snapshot()).toMatchObject({ status: 'working' });
      gates.open(gate);
      expect((await execution.settle()).outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: `Report ${gate} ready` }] },
      });
      const after = await bob.request('tasks/get', { taskId });
      expect(after.message.error?.code).toBe(-32602);
    });

    it("refuses another caller's answers to a task's questions, which stay pending", async () => {
      const created = await alice.request('tools/call', { name: 'register_user', arguments: {} });
      const { taskId } = created.message.result;
      const pending = async () => {
        const { message } = await alice.request('tasks/get', { taskId });
        expect(message.result.status).toBe('input_required');
        return Object.keys(message.result.inputRequests).toSorted();
      };
      await vi.waitFor(async () => expect(await pending()).toEqual(['name', 'plan']), POLL);
      const answers = {
        name: { action: 'accept', content: { name: 'Mallory' } },
        plan: { action: 'accept', content: { plan: 'free' } },
      };
      const refused = await bob.request('tasks/update', { taskId, inputResponses: answers });
      expect(refused.message.error?.code).toBe(-32602);
      expect(await pending()).toEqual(['name', 'plan']);
      await alice.request('tasks/update', {
        taskId,
        inputResponses: {
          name: { action: 'accept', content: { name: 'Ada' } },
          plan: { action: 'accept', content: { plan: 'pro' } },
        },
      });
      await vi.waitFor(async () => {
        const { message } = await alice.request('tasks/get', { taskId });
        expect(message.result.result?.content).toEqual([
          { type: 'text', text: 'Registered Ada on pro' },
        ]);
      }, POLL);
    });

    it('forgets a task when its TTL runs out: the method sees the abort, the id is unknown', async () => {
      const gate = newGate();
      const execution = await startTask(alice, 'short_lived', { gate });
      const { taskId } = execution.handle;
      // The test polls the wire itself from here on.
      await execution.detach();
      expect(createdOf(alice, taskId).ttlMs).toBe(SHORT_TTL_MS);
      await gates.abortSeen(gate);
      await vi.waitFor(async () => {
        const { message } = await alice.request('tasks/get', { taskId });
        expect(message.error?.code).toBe(-32602);
      }, POLL);
      for (const method of ['tasks/update', 'tasks/cancel']) {
        const { message } = await alice.request(method, { taskId, inputResponses: {} });
        expect(message.error?.code, method).toBe(-32602);
      }
    });

    it('keeps a finished task readable until its TTL, and only then forgets it', async () => {
      const execution = await startTask(alice, 'quick_note');
      const { taskId } = execution.handle;
      expect((await execution.settle()).outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'noted' }] },
      });
      const created = createdOf(alice, taskId);
      expect(created.ttlMs).toBe(NOTE_TTL_MS);
      const expiresAt = Date.parse(created.createdAt) + NOTE_TTL_MS;
      const finished = (await alice.request('tasks/get', { taskId })).message.result;
      expect(finished).toMatchObject({ status: 'completed', ttlMs: NOTE_TTL_MS });
      await sleep(500);
      const later = (await alice.request('tasks/get', { taskId })).message.result;
      expect(later).toEqual(finished);
      await vi.waitFor(async () => {
        const { message } = await alice.request('tasks/get', { taskId });
        expect(message.error?.code).toBe(-32602);
      }, POLL);
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    });

    it('runs guards before the task: a refused call is the usual answer and never a task', async () => {
      const before = gates.callsOf('admin_report');
      const refused = await bob.session.callTool<Record<string, any>>('admin_report', {});
      expect(refused.kind).toBe('immediate');
      expect(await refused.result()).toMatchObject({
        status: 'completed',
        result: {
          isError: true,
          content: [{ type: 'text', text: 'Forbidden (403): Forbidden resource' }],
        },
      });
      expect(bob.wire.answersTo('tools/call').at(-1)!.result).toMatchObject({
        resultType: 'complete',
        isError: true,
      });
      expect(gates.callsOf('admin_report')).toBe(before);
      const allowed = await startTask(admin, 'admin_report');
      expect((await allowed.settle()).outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'admin report' }] },
      });
      expect(gates.callsOf('admin_report')).toBe(before + 1);
    });

    it('validates the arguments before the task: an invalid call is the usual answer and never a task', async () => {
      const before = gates.callsOf('resize');
      const invalid = await alice.session.callTool<Record<string, any>>('resize', { width: 0 });
      expect(invalid.kind).toBe('immediate');
      const { result } = (await invalid.result()) as { result: Record<string, any> };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toBe('invalid_arguments');
      expect(result.content[0].text).toContain('/width');
      expect(alice.wire.answersTo('tools/call').at(-1)!.result).not.toHaveProperty('taskId');
      expect(gates.callsOf('resize')).toBe(before);
      const valid = await startTask(alice, 'resize', { width: 3 });
      expect((await valid.settle()).outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'resized to 3' }] },
      });
    });

    it('applies interceptors to the detached run: the task result is the mapped one', async () => {
      const execution = await startTask(alice, 'shout');
      expect((await execution.settle()).outcome).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'QUIET WORDS' }] },
      });
      const { message } = await alice.request('tasks/get', { taskId: execution.handle.taskId });
      expect(message.result.result.content).toEqual([{ type: 'text', text: 'QUIET WORDS' }]);
    });
  },
);

/** The owner of a task in the next app: the caller's tenant. */
const tenantOf = (request: { headers: Record<string, string | undefined> }) =>
  request.headers['x-tenant'];

describe.each(ADAPTERS)(
  'an identity of its own (the tenant) owns the tasks: 2026-07-28 (%s)',
  (adapter) => {
    let running: RunningApp;
    let gates: TaskGates;
    let callers: Record<'acme1' | 'acme2' | 'globex', ModernTaskClient>;

    beforeAll(async () => {
      running = await startApp(tasksAppModule({ identity: tenantOf }), {
        adapter,
        logger: logs,
      });
      gates = running.app.get(TaskGates);
      const connect = (token: string, tenant: string) =>
        connectModernTaskClient(running.url, { token, headers: { 'X-Tenant': tenant } });
      // Globex sends Acme's first token: the owner comes from the tenant, not the token.
      const [acme1, acme2, globex] = await Promise.all([
        connect('one', 'acme'),
        connect('two', 'acme'),
        connect('one', 'globex'),
      ]);
      callers = { acme1, acme2, globex };
    });

    afterEach(async () => {
      for (const caller of Object.values(callers)) {
        await expectWellFormedWires([caller]);
      }
    });

    afterAll(async () => {
      for (const caller of Object.values(callers ?? {})) await caller.close();
      await running?.close();
    });

    it('lets the callers it names the same see the task, and refuses the others with -32602', async () => {
      const gate = newGate();
      const execution = await startTask(callers.acme1, 'report', { gate });
      const { taskId } = execution.handle;
      await gates.started(gate);
      const colleague = await callers.acme2.request('tasks/get', { taskId });
      expect(colleague.message.result).toMatchObject({ taskId, status: 'working' });
      const stranger = await callers.globex.request('tasks/cancel', { taskId });
      expect(stranger.message.error?.code).toBe(-32602);
      expect(gates.sawAbort(gate)).toBe(false);
      gates.open(gate);
      expect((await execution.settle()).outcome).toMatchObject({ status: 'completed' });
    });
  },
);
