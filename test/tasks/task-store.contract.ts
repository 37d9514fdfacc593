// The behaviour every McpTaskStore has, as a suite any store runs on itself:
// `describeTaskStoreContract('RedisTaskStore', (options) => new RedisTaskStore(...))`.
// It uses only the public interface, with the store's clock injected (`now`).
import type { CallToolResult, InputRequests } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { McpTask } from '../../lib/interfaces/mcp-task-store.interface.js';
import { describeTaskStoreListing } from './task-store-listing.contract.js';
import {
  START,
  iso,
  tamper,
  useTaskStore,
  type TaskStoreCleanup,
  type TaskStoreFactory,
  type TaskStoreHarness,
} from './task-store.harness.js';

export type { TaskStoreCleanup, TaskStoreFactory } from './task-store.harness.js';

const ask = (message: string): InputRequests[string] => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
  },
});
const QUESTIONS: InputRequests = { name: ask('Your name?'), confirm: ask('Delete it?') };
const ACCEPT_NAME = { action: 'accept', content: { name: 'Alice' } };
const ACCEPT_CONFIRM = { action: 'accept', content: { confirm: true } };
const RESULT: CallToolResult = { content: [{ type: 'text', text: 'Exported 42 products' }] };

/** Every transition, applied to one task: what a final task must shrug off. */
const everyTransition = (h: TaskStoreHarness, taskId: string) => [
  () => h.store.setStatus(taskId, 'working', 'again'),
  () => h.store.setStatusMessage(taskId, 'still going'),
  () => h.store.requireInput(taskId, QUESTIONS, 'state'),
  () => h.store.resolveInput(taskId, { name: ACCEPT_NAME }),
  () => h.store.complete(taskId, RESULT),
  () => h.store.fail(taskId, { code: -32603, message: 'Internal error' }),
  () => h.store.requestCancel(taskId),
];

export function describeTaskStoreContract(
  name: string,
  makeStore: TaskStoreFactory,
  cleanup?: TaskStoreCleanup,
): void {
  describe(`${name} (the McpTaskStore contract)`, () => {
    const h = useTaskStore(makeStore, cleanup);

    /** A task created at START, then `input_required` with QUESTIONS, one minute later. */
    async function askedTask(requestState?: string): Promise<McpTask> {
      const task = await h.store.create(h.newTask());
      h.advance(60_000);
      const asked = await h.store.requireInput(task.taskId, QUESTIONS, requestState);
      await h.expectEvents([
        { type: 'updated', task },
        { type: 'updated', task: asked! },
      ]);
      return asked!;
    }

    describe('creating and reading', () => {
      it('stores a working task with the times of its creation, and tells subscribers', async () => {
        const input = h.newTask({ pollIntervalMs: 500, statusMessage: 'Queued' });
        const task = await h.store.create(input);
        expect(task).toEqual({
          ...input,
          status: 'working',
          createdAt: iso(START),
          lastUpdatedAt: iso(START),
        });
        expect(await h.store.get(input.taskId)).toEqual(task);
        await h.expectEvents([{ type: 'updated', task }]);
      });

      it('leaves out what the new task did not give, and keeps a TTL of null', async () => {
        const task = await h.store.create(h.newTask({ ttlMs: null }));
        expect(task.ttlMs).toBeNull();
        for (const key of ['statusMessage', 'pollIntervalMs', 'inputRequests', 'result', 'error']) {
          expect(task).not.toHaveProperty(key);
        }
      });

      it('refuses an id it has, and keeps the task it had', async () => {
        const task = await h.store.create(h.newTask({ toolName: 'first' }));
        await h.expectEvents([{ type: 'updated', task }]);
        await expect(
          h.store.create(h.newTask({ taskId: task.taskId, toolName: 'second' })),
        ).rejects.toThrow(task.taskId);
        expect(await h.store.get(task.taskId)).toEqual(task);
        await h.expectEvents([]);
      });

      it('resolves undefined for an unknown id, whatever the call, and emits nothing', async () => {
        const unknown = h.newTask().taskId;
        expect(await h.store.get(unknown)).toBeUndefined();
        for (const transition of everyTransition(h, unknown)) {
          expect(await transition()).toBeUndefined();
        }
        await h.expectEvents([]);
      });

      it('hands out copies: changing one changes nothing in the store', async () => {
        const input = h.newTask();
        const created = await h.store.create(input);
        tamper(created, (task) => (task.status = 'failed'));
        const read = await h.store.get(input.taskId);
        expect(read!.status).toBe('working');
        tamper(read!, (task) => (task.statusMessage = 'changed'));
        await h.store.requireInput(input.taskId, QUESTIONS);
        const asked = await h.store.get(input.taskId);
        tamper(asked!.inputRequests!, (requests) => delete requests.name);
        tamper(asked!.inputResponses!, (responses) => (responses.name = ACCEPT_NAME));
        const [listed] = (await h.store.list('alice')).tasks;
        tamper(listed!, (task) => (task.owner = 'mallory'));
        const stored = await h.store.get(input.taskId);
        expect(stored).toMatchObject({ owner: 'alice', status: 'input_required' });
        expect(stored).not.toHaveProperty('statusMessage');
        expect(Object.keys(stored!.inputRequests!)).toEqual(['name', 'confirm']);
        expect(stored!.inputResponses).toEqual({});
      });

      it('keeps its own copy of what it is given', async () => {
        const task = await h.store.create(h.newTask());
        const questions = structuredClone(QUESTIONS);
        const result = structuredClone(RESULT);
        await h.store.requireInput(task.taskId, questions);
        delete questions.name;
        expect(Object.keys((await h.store.get(task.taskId))!.inputRequests!)).toHaveLength(2);
        await h.store.complete(task.taskId, result);
        result.content.length = 0;
        expect((await h.store.get(task.taskId))!.result).toEqual(RESULT);
      });
    });

    describe('status and messages', () => {
      it('changes the message, keeps the status and stamps lastUpdatedAt', async () => {
        const task = await h.store.create(h.newTask({ statusMessage: 'Queued' }));
        h.advance(1_500);
        const updated = await h.store.setStatusMessage(task.taskId, 'Exported 10 of 42');
        expect(updated).toEqual({
          ...task,
          statusMessage: 'Exported 10 of 42',
          lastUpdatedAt: iso(START + 1_500),
        });
        expect(await h.store.get(task.taskId)).toEqual(updated);
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: updated! },
        ]);
      });

      it('sets status working with a message, or removes the message without one', async () => {
        const task = await h.store.create(h.newTask({ statusMessage: 'Queued' }));
        const withMessage = await h.store.setStatus(task.taskId, 'working', 'Indexing');
        expect(withMessage).toMatchObject({ status: 'working', statusMessage: 'Indexing' });
        const withoutMessage = await h.store.setStatus(task.taskId, 'working');
        expect(withoutMessage!.status).toBe('working');
        expect(withoutMessage).not.toHaveProperty('statusMessage');
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: withMessage! },
          { type: 'updated', task: withoutMessage! },
        ]);
      });

      it('keeps a task waiting for input waiting when only its message changes', async () => {
        const asked = await askedTask();
        const updated = await h.store.setStatusMessage(asked.taskId, 'Waiting for you');
        expect(updated).toEqual({ ...asked, statusMessage: 'Waiting for you' });
      });
    });

    describe('questions and answers', () => {
      it('asks: input_required with the questions, the request state and no answers yet', async () => {
        const task = await h.store.create(h.newTask());
        h.advance(60_000);
        const asked = await h.store.requireInput(task.taskId, QUESTIONS, 'step-2');
        expect(asked).toEqual({
          ...task,
          status: 'input_required',
          inputRequests: QUESTIONS,
          inputResponses: {},
          requestState: 'step-2',
          lastUpdatedAt: iso(START + 60_000),
        });
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: asked! },
        ]);
      });

      it('starts each round afresh: earlier answers and request state are cleared', async () => {
        const asked = await askedTask('round-1');
        await h.store.resolveInput(asked.taskId, { name: ACCEPT_NAME, confirm: ACCEPT_CONFIRM });
        const next = await h.store.requireInput(asked.taskId, { again: ask('Sure?') });
        expect(next).toMatchObject({ inputRequests: { again: ask('Sure?') }, inputResponses: {} });
        expect(next).not.toHaveProperty('requestState');
      });

      it('takes partial answers and ignores unknown and answered keys', async () => {
        const asked = await askedTask('step-2');
        h.advance(1_000);
        const partial = await h.store.resolveInput(asked.taskId, {
          name: ACCEPT_NAME,
          'unknown-key': { ignored: true },
        });
        expect(partial).toEqual({
          ...asked,
          inputRequests: { confirm: QUESTIONS.confirm },
          inputResponses: { name: ACCEPT_NAME },
          lastUpdatedAt: iso(START + 61_000),
        });
        expect(await h.store.get(asked.taskId)).toEqual(partial);
        await h.expectEvents([{ type: 'updated', task: partial! }]);

        h.advance(1_000);
        const done = await h.store.resolveInput(asked.taskId, {
          name: { action: 'decline' },
          confirm: ACCEPT_CONFIRM,
        });
        const { inputRequests: _answered, ...rest } = asked;
        const expected = {
          ...rest,
          status: 'working',
          inputResponses: { name: ACCEPT_NAME, confirm: ACCEPT_CONFIRM },
          requestState: 'step-2',
          lastUpdatedAt: iso(START + 62_000),
        };
        expect(done).toEqual(expected);
        expect(done).not.toHaveProperty('inputRequests');
        await h.expectEvents([
          { type: 'updated', task: done! },
          { type: 'input-complete', task: done! },
        ]);
      });

      it('completes the input when every question is answered at once', async () => {
        const asked = await askedTask();
        const done = await h.store.resolveInput(asked.taskId, {
          confirm: ACCEPT_CONFIRM,
          name: ACCEPT_NAME,
        });
        expect(done!.status).toBe('working');
        expect(done!.inputResponses).toEqual({ name: ACCEPT_NAME, confirm: ACCEPT_CONFIRM });
        await h.expectEvents([
          { type: 'updated', task: done! },
          { type: 'input-complete', task: done! },
        ]);
      });

      it('changes nothing when no answer matches a pending question', async () => {
        const asked = await askedTask();
        h.advance(1_000);
        expect(await h.store.resolveInput(asked.taskId, { other: ACCEPT_NAME })).toEqual(asked);
        expect(await h.store.resolveInput(asked.taskId, {})).toEqual(asked);
        expect(await h.store.get(asked.taskId)).toEqual(asked);
        await h.expectEvents([]);
      });

      it('changes nothing when the task is not waiting for input', async () => {
        const task = await h.store.create(h.newTask());
        await h.expectEvents([{ type: 'updated', task }]);
        expect(await h.store.resolveInput(task.taskId, { name: ACCEPT_NAME })).toEqual(task);
        expect(await h.store.get(task.taskId)).not.toHaveProperty('inputResponses');
        await h.expectEvents([]);
      });

      it('goes back to working without the questions on setStatus', async () => {
        const asked = await askedTask();
        const working = await h.store.setStatus(asked.taskId, 'working', 'Resumed');
        expect(working).toMatchObject({ status: 'working', statusMessage: 'Resumed' });
        expect(working).not.toHaveProperty('inputRequests');
        await h.expectEvents([{ type: 'updated', task: working! }]);
      });
    });

    describe('finishing', () => {
      it('completes with the result, an isError result too, and drops the input state', async () => {
        const asked = await askedTask('state');
        h.advance(5_000);
        const failedTool: CallToolResult = { ...RESULT, isError: true };
        const completed = await h.store.complete(asked.taskId, failedTool);
        expect(completed).toMatchObject({
          status: 'completed',
          result: failedTool,
          lastUpdatedAt: iso(START + 65_000),
        });
        for (const key of ['inputRequests', 'inputResponses', 'requestState', 'error']) {
          expect(completed).not.toHaveProperty(key);
        }
        expect(await h.store.get(asked.taskId)).toEqual(completed);
        await h.expectEvents([{ type: 'updated', task: completed! }]);
      });

      it('fails with the JSON-RPC error and no result', async () => {
        const task = await h.store.create(h.newTask());
        const error = { code: -32602, message: 'Invalid params', data: { field: 'sku' } };
        const failed = await h.store.fail(task.taskId, error);
        expect(failed).toMatchObject({ status: 'failed', error });
        expect(failed).not.toHaveProperty('result');
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: failed! },
        ]);
      });

      it.each([
        ['completed', (id: string) => h.store.complete(id, RESULT)],
        ['failed', (id: string) => h.store.fail(id, { code: 1, message: 'x' })],
        ['cancelled', (id: string) => h.store.requestCancel(id)],
      ] as const)('never changes a %s task again', async (status, finish) => {
        const task = await h.store.create(h.newTask());
        const final = await finish(task.taskId);
        expect(final!.status).toBe(status);
        await h.expectEvents(
          status === 'cancelled'
            ? [
                { type: 'updated', task },
                { type: 'updated', task: final! },
                { type: 'cancel-requested', taskId: task.taskId },
              ]
            : [
                { type: 'updated', task },
                { type: 'updated', task: final! },
              ],
        );
        h.advance(1_000);
        for (const transition of everyTransition(h, task.taskId)) {
          expect(await transition()).toEqual(final);
        }
        expect(await h.store.get(task.taskId)).toEqual(final);
        await h.expectEvents([]);
      });
    });

    describe('cancelling', () => {
      it('cancels a working task at once, then asks its runner to stop', async () => {
        const task = await h.store.create(h.newTask());
        h.advance(2_000);
        const cancelled = await h.store.requestCancel(task.taskId);
        expect(cancelled).toEqual({
          ...task,
          status: 'cancelled',
          lastUpdatedAt: iso(START + 2_000),
        });
        expect(await h.store.get(task.taskId)).toEqual(cancelled);
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: cancelled! },
          { type: 'cancel-requested', taskId: task.taskId },
        ]);
      });

      it('cancels a task waiting for input, and its questions go with it', async () => {
        const asked = await askedTask('state');
        const cancelled = await h.store.requestCancel(asked.taskId);
        expect(cancelled!.status).toBe('cancelled');
        expect(cancelled).not.toHaveProperty('inputRequests');
        await h.expectEvents([
          { type: 'updated', task: cancelled! },
          { type: 'cancel-requested', taskId: asked.taskId },
        ]);
      });

      it('returns a finished task as it is, without a word to the runner', async () => {
        const task = await h.store.create(h.newTask());
        const completed = await h.store.complete(task.taskId, RESULT);
        await h.expectEvents([
          { type: 'updated', task },
          { type: 'updated', task: completed! },
        ]);
        expect(await h.store.requestCancel(task.taskId)).toEqual(completed);
        await h.expectEvents([]);
      });
    });

    describeTaskStoreListing(h);
  });
}
