import type { ToolExecution } from '@modelcontextprotocol/ext-tasks/client';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRODUCT_SEED } from '../../sample/catalog/products.seed.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { SampleInstances, scaleOutEnv, type SampleInstance } from '../support/sample-instances.js';
import {
  connectLegacyTaskClient,
  connectModernTaskClient,
  type LegacyTaskClient,
  type ModernTaskClient,
  expectWellFormedWires,
  startLegacyTask,
} from '../support/task-clients.js';

/**
 * The tasks of the scale-out issue, with the built sample: three processes A, B and C on one
 * redis-server (SAMPLE_REDIS_URL), where `reindex_catalog` (about 4 s) runs on the BullMQ
 * queue, on whichever instance takes it. A task started on A is polled, cancelled and read
 * through B, on 2026-07-28 and on a 2025 session; the second round of delete_product's
 * question is answered on another instance than the first; a task whose instance is killed
 * ends failed, read through one that survives (last: it kills an instance). The notifications are in sample-scale-out.e2e-spec.ts.
 */
const ADMIN = SAMPLE_DEFAULTS.adminToken;
const TOOL = 'reindex_catalog';
/**
 * What `reportProgress` makes of the run's progress: `Indexed BOK-1001 (1/36)`. Each
 * instance keeps its own products (a confirmed delete_product below removes one on B).
 */
const INDEXING = /^Indexed [A-Z]{3}-\d{4} \(\d+\/\d+\)$/;
/** A killed instance is noticed one to two task locks (1.5 s here) after it stopped. */
const POLL = { timeout: 30_000, interval: 100 };

let redis: RedisServer;
const instances = new SampleInstances();
let a: SampleInstance;
let b: SampleInstance;
let c: SampleInstance;
/** One 2026-07-28 task client per instance, by instance name. */
const clients = new Map<string, ModernTaskClient>();
const on = (instance: SampleInstance) => clients.get(instance.name)!;

beforeAll(async () => {
  redis = await startRedisServer();
  const env = scaleOutEnv(redis.url, randomBytes(32).toString('hex'));
  [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => instances.start(name, env)));
  for (const instance of [a, b, c]) {
    clients.set(instance.name, await connectModernTaskClient(instance.url, { token: ADMIN }));
  }
}, 60_000);

// Every answer of every instance has the shape its revision's ext-tasks schemas give.
afterEach(async () => {
  await expectWellFormedWires(clients.values());
});

afterAll(async () => {
  for (const client of clients.values()) await client.close().catch(() => undefined);
  await instances.stopAll();
  await redis?.stop();
});

/** `tasks/get` through an instance: the task as that instance reads it from Redis. */
async function taskOn(instance: SampleInstance, taskId: string): Promise<Record<string, any>> {
  const { message } = await on(instance).request('tasks/get', { taskId });
  expect(message.error).toBeUndefined();
  return message.result;
}

/** Starts the re-index on an instance as a 2026-07-28 task (the ext-tasks session). */
async function startTask(instance: SampleInstance) {
  const execution = await on(instance).session.callTool<Record<string, any>>(
    TOOL,
    {},
    { task: { preference: 'require' } },
  );
  expect(execution.kind).toBe('task');
  return (execution as ToolExecution<Record<string, any>> & { kind: 'task' }).handle.taskId;
}

/** Polls `tasks/get` through an instance until the run has indexed at least one product. */
async function indexing(instance: SampleInstance, taskId: string): Promise<void> {
  await vi.waitFor(async () => {
    const task = await taskOn(instance, taskId);
    expect(task).toMatchObject({ status: 'working' });
    expect(task.statusMessage).toMatch(INDEXING);
  }, POLL);
}

describe('a task started on A, on 2026-07-28', () => {
  it('is polled and cancelled through B, and reads cancelled on both', async () => {
    const taskId = await startTask(a);
    await indexing(b, taskId);
    const { message } = await on(b).request('tasks/cancel', { taskId });
    expect(message.error).toBeUndefined();
    for (const instance of [a, b]) {
      await vi.waitFor(async () => {
        expect(await taskOn(instance, taskId)).toMatchObject({ taskId, status: 'cancelled' });
      }, POLL);
    }
  });

  it('completes, and its result is read on B', async () => {
    const taskId = await startTask(a);
    await vi.waitFor(async () => {
      expect(await taskOn(b, taskId)).toMatchObject({ status: 'completed' });
    }, POLL);
    expect(await taskOn(b, taskId)).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { structuredContent: { products: PRODUCT_SEED.length, words: expect.any(Number) } },
    });
  });
});

describe('a task started on a 2025 session on A', () => {
  let onA: LegacyTaskClient;
  let onB: LegacyTaskClient;

  beforeAll(async () => {
    onA = await connectLegacyTaskClient(a.url, ADMIN);
    onB = await connectLegacyTaskClient(b.url, ADMIN);
  });

  afterEach(async () => {
    await expectWellFormedWires([onA, onB]);
  });

  afterAll(async () => {
    await onA?.close();
    await onB?.close();
  });

  it('is polled and cancelled on a session on B', async () => {
    const { stream, taskId } = await startLegacyTask(onA, TOOL);
    await vi.waitFor(async () => {
      const task = await onB.client.experimental.tasks.getTask(taskId);
      expect(task).toMatchObject({
        status: 'working',
        statusMessage: expect.stringMatching(INDEXING),
      });
    }, POLL);
    expect(await onB.client.experimental.tasks.cancelTask(taskId)).toMatchObject({
      taskId,
      status: 'cancelled',
    });
    const messages: Array<Record<string, any>> = [];
    for await (const message of stream) messages.push(message);
    expect(messages.at(-1)).toMatchObject({ type: 'error' });
    expect(await onA.client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'cancelled',
    });
  });
});

/** One round of delete_product through an instance, as a 2026-07-28 client that can be asked. */
const roundOn = (instance: SampleInstance, id: string, round: Record<string, unknown> = {}) =>
  on(instance).request(
    'tools/call',
    { name: 'delete_product', arguments: { id }, ...round },
    { extension: false },
  );

describe('a second round minted on one instance is accepted on another', () => {
  // delete_product asks a client that can be asked to confirm; the question's round carries
  // the product's id in a state signed with SAMPLE_STATE_SECRET, which B verifies.
  it('asks on A, deletes on B with the answer and the state A minted', async () => {
    const { id, sku } = PRODUCT_SEED[0];
    const asked = await roundOn(a, id);
    expect(asked.message.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    });
    expect(asked.message.result.inputRequests.confirm.params.message).toContain(sku);
    const deleted = await roundOn(b, id, {
      requestState: asked.message.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(deleted.message.result.isError).toBeFalsy();
    expect(deleted.message.result.structuredContent).toMatchObject({ id, sku });
  });

  it('keeps the product when the user declines, and asks again for a state of another product', async () => {
    const [first, second] = [PRODUCT_SEED[1], PRODUCT_SEED[2]];
    const asked = await roundOn(a, first.id);
    const declined = await roundOn(b, first.id, {
      requestState: asked.message.result.requestState,
      inputResponses: { confirm: { action: 'decline' } },
    });
    expect(declined.message.result.content[0].text).toBe(
      `Not deleted: the user did not confirm the deletion of ${first.sku}.`,
    );
    // The answer given for the first product confirms nothing about the second.
    const elsewhere = await roundOn(b, second.id, {
      requestState: asked.message.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(elsewhere.message.result.resultType).toBe('input_required');
    const tampered = await roundOn(b, first.id, {
      requestState: `${asked.message.result.requestState}x`,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    // A state changed on the way verifies nowhere.
    expect(tampered.message.error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
  });
});

// Last: it kills one of the instances.
describe('a task whose instance is killed (SIGKILL)', () => {
  it('ends failed, saying its instance stopped, read through an instance that survives', async () => {
    const taskId = await startTask(a);
    await indexing(a, taskId);
    // The instance that took the job logs the run's start with the task id.
    const workers = [a, b, c].filter((instance) => instance.output().includes(`(task ${taskId})`));
    expect(workers).toHaveLength(1);
    const [worker] = workers;
    await instances.kill(worker);
    const survivor = [a, b, c].find((instance) => instance !== worker)!;
    await vi.waitFor(async () => {
      const task = await taskOn(survivor, taskId);
      expect(task.status).not.toBe('working');
      expect(task).toMatchObject({
        status: 'failed',
        error: { message: expect.stringContaining('instance running this task stopped') },
      });
    }, POLL);
  }, 45_000);
});
