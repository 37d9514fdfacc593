import type { ToolExecution } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { PRODUCT_SEED } from '../../sample/catalog/products.seed.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectLegacyTaskClient,
  connectModernTaskClient,
  type LegacyTaskClient,
  type ModernTaskClient,
  expectWellFormedWires,
  startLegacyTask,
} from '../support/task-clients.js';
import { TASKS_EXTENSION } from '../support/task-wire.js';

/**
 * The done-when of the tasks issue, against the sample as `npm start` serves it: a
 * task-capable client starts `reindex_catalog` (about 4 s), sees its status while it works,
 * and cancels it or receives its report, on 2026-07-28 (the ext-tasks client) and on
 * 2025-11-25 (the v1 SDK client's experimental tasks API). Every answer is checked against
 * the ext-tasks schemas of its revision (`wire.violations`).
 */
const logs = captureLogs();

const TOOL = 'reindex_catalog';
const PRODUCTS = PRODUCT_SEED.length;
/** What `reportProgress` makes of the run's progress: `Indexed BOK-1001 (1/36)`. */
const INDEXING = new RegExp(`^Indexed [A-Z]{3}-\\d{4} \\(\\d+/${PRODUCTS}\\)$`);
/** The task polls below: the run takes seconds, so waits get a generous bound. */
const POLL = { timeout: 15_000, interval: 50 };
const FORBIDDEN = 'Forbidden (403): Missing scope(s): catalog.write; the caller has catalog.read.';

/**
 * The "Re-indexed" lines logged in this test (the logs are cleared after each): one per run
 * that went to its end, none for a run that stopped.
 */
const reindexedLines = () =>
  logs.messages('log', 'CatalogIndexService').filter((line) => line.startsWith('Re-indexed'));

const report = { products: PRODUCTS, words: expect.any(Number) };
const textOf = (result: Record<string, any>) =>
  (result.content ?? []).map((block: { text?: string }) => block.text).join('\n');

describe.each(ADAPTERS)('the sample reindex_catalog as an MCP task on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(AppModule, { adapter, logger: logs });
  });

  afterAll(() => running?.close());

  describe('2026-07-28, the ext-tasks client', () => {
    let admin: ModernTaskClient;
    let reader: ModernTaskClient;

    beforeAll(async () => {
      admin = await connectModernTaskClient(running.url, { token: SAMPLE_DEFAULTS.adminToken });
      reader = await connectModernTaskClient(running.url, { token: SAMPLE_DEFAULTS.readerToken });
    });

    afterEach(async () => {
      await expectWellFormedWires([admin, reader]);
    });

    afterAll(async () => {
      await admin?.close();
      await reader?.close();
    });

    async function startTask(): Promise<ToolExecution<Record<string, any>> & { kind: 'task' }> {
      const execution = await admin.session.callTool<Record<string, any>>(
        TOOL,
        {},
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      return execution as ToolExecution<Record<string, any>> & { kind: 'task' };
    }

    /** Polls `tasks/get` until the run has indexed at least one product. */
    async function indexing(taskId: string): Promise<void> {
      await vi.waitFor(async () => {
        const { message } = await admin.request('tasks/get', { taskId });
        expect(message.result).toMatchObject({ status: 'working' });
        expect(message.result.statusMessage).toMatch(INDEXING);
      }, POLL);
    }

    it('advertises the tasks extension in server/discover', () => {
      const capabilities = admin.client.getServerCapabilities() as Record<string, any>;
      expect(capabilities.extensions[TASKS_EXTENSION]).toEqual({});
    });

    it('starts the re-index as a task, shows its status while it works, and holds the report', async () => {
      const execution = await startTask();
      const { taskId } = execution.handle;
      const created = admin.wire.answersTo('tools/call').at(-1)!.result;
      // Ten minutes, from the tool's `task.ttlMs`; the first status is set before any wait.
      expect(created).toMatchObject({
        resultType: 'task',
        taskId,
        status: 'working',
        statusMessage: 'Reading the catalog',
        ttlMs: 600_000,
      });
      await indexing(taskId);
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: 'completed', result: { structuredContent: report } });
      const { message } = await admin.request('tasks/get', { taskId });
      expect(message.result).toMatchObject({
        resultType: 'complete',
        taskId,
        status: 'completed',
        result: { structuredContent: report },
      });
      expect(message.result.result.structuredContent.words).toBeGreaterThan(100);
    });

    it('cancels the re-index: the task ends cancelled, and the run stops', async () => {
      const execution = await startTask();
      const { taskId } = execution.handle;
      await indexing(taskId);
      await execution.cancel();
      expect(admin.wire.answersTo('tasks/cancel').at(-1)).toMatchObject({
        result: { resultType: 'complete' },
      });
      expect((await execution.result()).status).toBe('cancelled');
      const { message } = await admin.request('tasks/get', { taskId });
      expect(message.result).toMatchObject({ status: 'cancelled' });
      expect(message.result).not.toHaveProperty('result');
      // A run started after the cancel ends after it would have: had the cancelled run gone
      // on, it would have logged its "Re-indexed" line first.
      const next = await startTask();
      expect((await next.settle()).outcome.status).toBe('completed');
      expect(reindexedLines()).toHaveLength(1);
    });

    it('answers a client that did not declare the extension in the request, as any tool', async () => {
      const { message } = await admin.request(
        'tools/call',
        { name: TOOL, arguments: {} },
        { extension: false },
      );
      expect(message.result).toMatchObject({ resultType: 'complete', structuredContent: report });
      expect(message.result).not.toHaveProperty('taskId');
    });

    it("refuses the reader before any task exists, and hides the admin's task from it", async () => {
      const refused = await reader.request('tools/call', { name: TOOL, arguments: {} });
      expect(refused.message.result).toMatchObject({ isError: true });
      expect(textOf(refused.message.result)).toBe(FORBIDDEN);
      expect(refused.message.result).not.toHaveProperty('taskId');

      const execution = await startTask();
      const { taskId } = execution.handle;
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const { message } = await reader.request(method, { taskId });
        expect(message.error).toMatchObject({ code: -32602 });
      }
      // The reader's cancel changed nothing: the admin's task still runs, then completes.
      expect((await execution.settle()).outcome.status).toBe('completed');
    });
  });

  describe('2025-11-25, the v1 SDK client', () => {
    let admin: LegacyTaskClient;
    let reader: LegacyTaskClient;

    beforeAll(async () => {
      admin = await connectLegacyTaskClient(running.url, SAMPLE_DEFAULTS.adminToken);
      reader = await connectLegacyTaskClient(running.url, SAMPLE_DEFAULTS.readerToken);
    });

    afterEach(async () => {
      await expectWellFormedWires([admin, reader]);
    });

    afterAll(async () => {
      await admin?.close();
      await reader?.close();
    });

    /** Starts the re-index with `params.task` and reads the stream to its `taskCreated`. */
    const startTask = () => startLegacyTask(admin, TOOL);

    /** Polls `tasks/get` until the run has indexed at least one product. */
    async function indexing(taskId: string): Promise<void> {
      await vi.waitFor(async () => {
        const { message } = await admin.request('tasks/get', { taskId });
        expect(message.result).toMatchObject({ status: 'working' });
        expect(message.result.statusMessage).toMatch(INDEXING);
      }, POLL);
    }

    it('advertises tasks in initialize and lists the tool with execution.taskSupport', async () => {
      expect(admin.client.getServerCapabilities()?.tasks).toMatchObject({
        requests: { tools: { call: {} } },
        cancel: {},
        list: {},
      });
      const { tools } = await admin.client.listTools();
      expect(tools.find((tool) => tool.name === TOOL)?.execution).toEqual({
        taskSupport: 'optional',
      });
    });

    it('starts the re-index with params.task, shows its status while it works, and returns the report', async () => {
      const { stream, taskId } = await startTask();
      await indexing(taskId);
      const messages: Array<Record<string, any>> = [];
      for await (const message of stream) messages.push(message);
      expect(messages.at(-1)).toMatchObject({
        type: 'result',
        result: { structuredContent: report },
      });
      expect(messages.filter((message) => message.type === 'taskStatus').at(-1)).toMatchObject({
        task: { taskId, status: 'completed' },
      });
      // tasks/result returns the result itself; the task stays readable and listed.
      const result = await admin.request('tasks/result', { taskId });
      expect(result.message.result).toMatchObject({ structuredContent: report });
      const { tasks } = await admin.client.experimental.tasks.listTasks();
      expect(tasks.map((task) => task.taskId)).toContain(taskId);
    });

    it('cancels the re-index with tasks/cancel: the task ends cancelled, and the run stops', async () => {
      const { stream, taskId } = await startTask();
      await indexing(taskId);
      const cancelled = await admin.client.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      const messages: Array<Record<string, any>> = [];
      for await (const message of stream) messages.push(message);
      expect(messages.at(-1)).toMatchObject({ type: 'error' });
      expect(String(messages.at(-1)!.error.message)).toContain('was cancelled');
      expect(await admin.client.experimental.tasks.getTask(taskId)).toMatchObject({
        status: 'cancelled',
      });
      // As on 2026-07-28: a later run finishes first only if the cancelled one stopped.
      const next = await startTask();
      for await (const message of next.stream) if (message.type === 'error') throw message.error;
      expect(reindexedLines()).toHaveLength(1);
    });

    it("hides the admin's task from the reader", async () => {
      const { stream, taskId } = await startTask();
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        const { message } = await reader.request(method, { taskId });
        expect(message.error).toMatchObject({ code: -32602 });
      }
      const { tasks } = await reader.client.experimental.tasks.listTasks();
      expect(tasks.map((task) => task.taskId)).not.toContain(taskId);
      await admin.client.experimental.tasks.cancelTask(taskId);
      for await (const message of stream) void message;
    });
  });
});
