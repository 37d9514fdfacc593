// Two instances of one app on one real Redis, in this process (each its own Nest app, its
// own RedisScaleOut and connections): tasks on the BullMQ queue are read, answered and
// cancelled through either; the request state minted by one verifies on the other; a
// change on one reaches the other's clients; a 2025 session sent to the wrong instance
// says where it belongs. The spawned-process tests of the sample: sample-scale-out.e2e-spec.
import { Test } from '@nestjs/testing';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServerHost } from '../../lib/index.js';
import { ProtocolRuntime } from '../../lib/protocol/protocol.runtime.js';
import { Jobs, jobsModule } from '../fixtures/redis/jobs.app.js';
import { callJobs, until } from '../support/jobs-client.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { initializeRequest } from '../transports/stdio/stdio-process.js';

async function startInstance(redis: RedisServer, instanceId: string) {
  const moduleRef = await Test.createTestingModule({
    imports: [jobsModule(redis.url, instanceId)],
  }).compile();
  const app = moduleRef.createNestApplication(new ExpressAdapter(), { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}/mcp`,
    jobs: app.get(Jobs),
    host: app.get(McpServerHost),
    runtime: app.get(ProtocolRuntime),
  };
}

type Instance = Awaited<ReturnType<typeof startInstance>>;

/** A 2026-07-28 request through an instance (the fixture's caller). */
const modern = (instance: Instance, method: string, params: Record<string, unknown> = {}) =>
  callJobs(instance.url, method, params);

describe('two instances on one Redis (scaleOut, tasks.queue)', () => {
  let redis: RedisServer;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    redis = await startRedisServer();
    a = await startInstance(redis, 'a1');
    b = await startInstance(redis, 'b2');
  }, 30_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await redis?.stop();
  });

  const taskOf = (instance: Instance, taskId: string) =>
    modern(instance, 'tasks/get', { taskId }).then(({ message }) => message.result);

  it('a task created on A is read and cancelled through B', async () => {
    const created = await modern(a, 'tools/call', { name: 'wait', arguments: {} });
    const taskId = created.message.result.task?.taskId ?? created.message.result.taskId;
    expect(taskId, JSON.stringify(created.message)).toMatch(/^[0-9a-f-]{36}$/);
    const working = await until(
      () => taskOf(b, taskId),
      (task) => task?.statusMessage === 'waiting',
    );
    expect(working.status).toBe('working');
    const cancelled = await modern(b, 'tasks/cancel', { taskId });
    expect(cancelled.message.error).toBeUndefined();
    expect((await taskOf(a, taskId)).status).toBe('cancelled');
    expect((await taskOf(b, taskId)).status).toBe('cancelled');
    // The method saw its signal abort, on whichever instance ran it.
    await until(
      async () => [...a.jobs.aborted, ...b.jobs.aborted],
      (aborted) => aborted.includes(taskId),
    );
  });

  it('a task asks its question on any instance and is answered through the other', async () => {
    const created = await modern(a, 'tools/call', { name: 'greet', arguments: { label: 'x1' } });
    const taskId = created.message.result.task?.taskId ?? created.message.result.taskId;
    const asked = await until(
      () => taskOf(b, taskId),
      (task) => task?.status === 'input_required',
    );
    expect(Object.keys(asked.inputRequests)).toEqual(['name']);
    await modern(b, 'tasks/update', {
      taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
    const done = await until(
      () => taskOf(a, taskId),
      (task) => task?.status === 'completed',
    );
    expect(done.result.content[0].text).toBe('Hello Ada (x1), asked by alice');
  });

  it('the request state minted on A verifies on B', async () => {
    const first = await modern(a, 'tools/call', { name: 'count', arguments: {} });
    expect(first.message.result.resultType).toBe('input_required');
    const second = await modern(b, 'tools/call', {
      name: 'count',
      arguments: {},
      requestState: first.message.result.requestState,
      inputResponses: { n: { action: 'accept', content: { n: 7 } } },
    });
    expect(second.message.result.content[0].text).toBe('n=7, started here');
  });

  it('invalid arguments are answered in the request: no task is made', async () => {
    const before = a.jobs.ran.length + b.jobs.ran.length;
    const refused = await modern(a, 'tools/call', { name: 'greet', arguments: {} });
    expect(refused.message.result.resultType).not.toBe('task');
    expect(refused.message.result.isError).toBe(true);
    expect(refused.message.result.content[0].text).toContain('label');
    await pause(200);
    expect(a.jobs.ran.length + b.jobs.ran.length).toBe(before);
  });

  it('a 2025 session sent to the other instance is told where it was opened', async () => {
    const init = await fetch(a.url, {
      method: 'POST',
      headers: {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        Authorization: 'Bearer ok',
      },
      body: JSON.stringify(initializeRequest(1)),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    expect(sessionId.startsWith('a1.')).toBe(true);
    const misrouted = await fetch(b.url, {
      method: 'POST',
      headers: {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        Authorization: 'Bearer ok',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(misrouted.status).toBe(404);
    const body = await misrouted.json();
    expect(body.error.message).toContain('it was opened on instance a1');
    expect(body.error.message).toContain('sticky sessions');
  });

  it('a change on B reaches the notifier of A once', async () => {
    const heard: string[] = [];
    const stop = a.runtime.onChange((change) =>
      heard.push(change.kind === 'resource' ? change.uri : change.kind),
    );
    b.host.resourceUpdated('mem://one');
    await until(
      async () => heard,
      (list) => list.includes('mem://one'),
    );
    await pause(200);
    stop();
    expect(heard).toEqual(['mem://one']);
  });

  // Last: it stops Redis and starts a new, empty one on the same port.
  it('without Redis: stateless calls go on, tasks get an error naming Redis; back without a restart', async () => {
    await redis.stop();
    const stateless = await modern(a, 'tools/call', { name: 'count', arguments: {} });
    expect(stateless.message.result.resultType).toBe('input_required');
    const task = await modern(a, 'tools/call', { name: 'wait', arguments: {} });
    expect(task.message.error?.message ?? '').toContain('Redis is unavailable');
    const read = await modern(b, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' });
    expect(read.message.error?.message ?? '').toContain('Redis is unavailable');

    await redis.restart();
    const heard: string[] = [];
    const stop = a.runtime.onChange((change) => {
      if (change.kind === 'resource') heard.push(change.uri);
    });
    // B's reader and writer reconnect by themselves; its change reaches A once.
    b.host.resourceUpdated('mem://after');
    await until(
      async () => heard,
      (list) => list.includes('mem://after'),
      30_000,
    );
    stop();
    expect(heard).toEqual(['mem://after']);
    const created = await until(
      () => modern(a, 'tools/call', { name: 'wait', arguments: {} }),
      ({ message }) => message.result?.resultType === 'task',
      30_000,
    );
    const taskId = created.message.result.taskId;
    await modern(b, 'tasks/cancel', { taskId });
    expect((await taskOf(a, taskId)).status).toBe('cancelled');
  }, 90_000);
});
