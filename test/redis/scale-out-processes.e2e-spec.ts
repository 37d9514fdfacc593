// The scale-out fixture (test/fixtures/redis/jobs.app.ts) as two processes A and B on one
// redis-server, as two replicas: a task created on A asks its question, is read and answered
// through B, and its result is read on A; a task created on A is cancelled through B and the
// instance running it sees the cancel; a round minted on A is accepted on B.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../support/fixture-build.js';
import { callJobs, taskAt, until } from '../support/jobs-client.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { ROOT } from '../transports/stdio/stdio-process.js';

interface Instance {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  output(): string;
}

/** Starts one instance and resolves once it says where it listens. */
async function startInstance(script: string, redisUrl: string, id: string): Promise<Instance> {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: redisUrl, INSTANCE_ID: id, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`instance ${id} exited:\n${output}`);
      return /listening (\S+)/.exec(output)?.[1];
    },
    (found) => found !== undefined,
    20_000,
  );
  return { url: url!.replace('[::1]', '127.0.0.1'), child, output: () => output };
}

let redis: RedisServer;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  const script = buildFixture('test/fixtures/redis/jobs.app.ts');
  redis = await startRedisServer();
  [a, b] = await Promise.all([
    startInstance(script, redis.url, 'a1'),
    startInstance(script, redis.url, 'b2'),
  ]);
}, 60_000);

afterAll(async () => {
  for (const instance of [a, b]) {
    if (!instance || instance.child.exitCode !== null) continue;
    const exited = once(instance.child, 'exit');
    instance.child.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
});

describe('two instances in separate processes', () => {
  it('a task created on A asks, is answered through B, and its result is read on A', async () => {
    const created = await callJobs(a.url, 'tools/call', {
      name: 'greet',
      arguments: { label: 'p1' },
    });
    const { taskId } = created.message.result;
    expect(created.message.result.resultType).toBe('task');
    const asked = await until(
      () => taskAt(b.url, taskId),
      (task) => task?.status === 'input_required',
    );
    expect(asked.inputRequests.name.params.message).toBe('Your name?');
    const answered = await callJobs(b.url, 'tasks/update', {
      taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Grace' } } },
    });
    expect(answered.message.error).toBeUndefined();
    const done = await until(
      () => taskAt(a.url, taskId),
      (task) => task?.status === 'completed',
    );
    expect(done.result.content[0].text).toBe('Hello Grace (p1), asked by alice');
  });

  it('a task created on A is cancelled through B, and the instance running it stops it', async () => {
    const created = await callJobs(a.url, 'tools/call', { name: 'wait', arguments: {} });
    const { taskId } = created.message.result;
    await until(
      () => taskAt(b.url, taskId),
      (task) => task?.statusMessage === 'waiting',
    );
    await callJobs(b.url, 'tasks/cancel', { taskId });
    expect((await taskAt(a.url, taskId)).status).toBe('cancelled');
    await until(
      async () => a.output() + b.output(),
      (output) => output.includes(`aborted ${taskId}`),
    );
  });

  it('the request state minted on A verifies on B', async () => {
    const first = await callJobs(a.url, 'tools/call', { name: 'count', arguments: {} });
    expect(first.message.result.resultType).toBe('input_required');
    const second = await callJobs(b.url, 'tools/call', {
      name: 'count',
      arguments: {},
      requestState: first.message.result.requestState,
      inputResponses: { n: { action: 'accept', content: { n: 3 } } },
    });
    expect(second.message.result.content[0].text).toBe('n=3, started here');
  });
});
