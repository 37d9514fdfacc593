import * as v1 from '@modelcontextprotocol/ext-tasks/core/v1';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskGates, tasksAppModule } from '../fixtures/tasks.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import {
  connectLegacyTaskClient,
  type LegacyTaskClient,
  expectWellFormedWires,
} from '../support/task-clients.js';

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

const POLL = { timeout: 10_000, interval: 20 };

/** What the user answers: confirms, and names Ada on the pro plan. */
const ANSWERS: Record<string, unknown> = { confirm: true, name: 'Ada', plan: 'pro' };

let gateCount = 0;
const newGate = () => `session-gate-${++gateCount}`;

async function createTask(caller: LegacyTaskClient, name: string, args = {}) {
  const { task } = await caller.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: {} },
  );
  return task;
}

describe.each(ADAPTERS)(
  'MCP tasks on 2025-11-25 with sessions: questions and status notifications (%s)',
  (adapter) => {
    let running: RunningApp;
    let gates: TaskGates;
    let alice: LegacyTaskClient;
    const asked: Array<Record<string, any>> = [];
    const notified: Array<Record<string, any>> = [];

    beforeAll(async () => {
      running = await startApp(tasksAppModule({ http: { legacySessions: true } }), {
        adapter,
        logger: logs,
      });
      gates = running.app.get(TaskGates);
      alice = await connectLegacyTaskClient(running.url, 'alice', {
        elicitation: (params) => {
          asked.push(params);
          const fields = Object.keys(params.requestedSchema?.properties ?? {});
          return {
            action: 'accept',
            content: Object.fromEntries(fields.map((field) => [field, ANSWERS[field]])),
          };
        },
      });
      alice.client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
        notified.push(notification);
      });
    });

    afterEach(async () => {
      // Every task object the server sent matched the ext-tasks V1 schemas.
      await expectWellFormedWires([alice]);
      for (const notification of notified.splice(0)) {
        const parsed = v1.TaskStatusNotificationV1Schema.safeParse({
          jsonrpc: '2.0',
          ...notification,
        });
        expect(parsed.error?.issues).toBeUndefined();
      }
      asked.splice(0);
    });

    afterAll(async () => {
      await alice?.close();
      await running?.close();
    });

    const getTask = (taskId: string) => alice.client.experimental.tasks.getTask(taskId);
    const resultOf = (taskId: string) =>
      alice.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);

    it('asks the question of a task on the tasks/result stream, and completes with the answer', async () => {
      const task = await createTask(alice, 'purge', { filename: 'old.csv' });
      await vi.waitFor(
        async () => expect((await getTask(task.taskId)).status).toBe('input_required'),
        POLL,
      );
      expect(asked).toEqual([]);
      const result = await resultOf(task.taskId);
      expect(result.content).toEqual([{ type: 'text', text: 'Deleted old.csv' }]);
      expect(asked).toEqual([expect.objectContaining({ message: 'Delete old.csv?' })]);
      expect((await getTask(task.taskId)).status).toBe('completed');
    });

    it('asks two questions at once and resumes once both are answered', async () => {
      const task = await createTask(alice, 'register_user');
      const result = await resultOf(task.taskId);
      expect(result.content).toEqual([{ type: 'text', text: 'Registered Ada on pro' }]);
      expect(asked.map((params) => params.message).toSorted()).toEqual([
        'Which plan?',
        'Your name?',
      ]);
    });

    it('tells the session when its task ends (notifications/tasks/status)', async () => {
      const gate = newGate();
      const task = await createTask(alice, 'report', { gate });
      await gates.started(gate);
      gates.open(gate);
      const ended = () =>
        notified.find((n) => n.params.taskId === task.taskId && n.params.status === 'completed');
      await vi.waitFor(() => expect(ended()).toBeDefined(), POLL);
      expect(ended()!.params).toEqual(await getTask(task.taskId));
    });
  },
);
