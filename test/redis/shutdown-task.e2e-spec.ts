// A task running on an instance that shuts down gracefully (SIGTERM with
// `app.enableShutdownHooks()`), with the scale-out fixture (test/fixtures/redis/jobs.app.ts:
// tasks on the BullMQ queue) as two processes on one redis-server: the other instance
// reports it `cancelled`, saying why, and it stays so once the queue's stalled-job check
// has run (docs/scale-out.md, "Tasks on the queue").
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../support/fixture-build.js';
import { callJobs, taskAt, until } from '../support/jobs-client.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { ROOT } from '../transports/stdio/stdio-process.js';

/** The fixture's `queue.lockDurationMs`: a stalled job is found one to two of these later. */
const LOCK_MS = 1_000;

interface Instance {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  output(): string;
}

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

const ended = ({ child }: Instance) => child.exitCode !== null || child.signalCode !== null;

let script: string;
let redis: RedisServer;
const started: Instance[] = [];

beforeAll(async () => {
  script = buildFixture('test/fixtures/redis/jobs.app.ts');
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  for (const instance of started.filter((candidate) => !ended(candidate))) {
    const exited = once(instance.child, 'exit');
    instance.child.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
});

describe('a task running on an instance that gets SIGTERM', () => {
  it('reads cancelled on the other instance, saying the server shut down, and stays so', async () => {
    // A alone takes the job; B starts once the task runs on A.
    const a = await startInstance(script, redis.url, 'a1');
    started.push(a);
    const created = await callJobs(a.url, 'tools/call', { name: 'wait', arguments: {} });
    const { taskId } = created.message.result;
    await until(
      () => taskAt(a.url, taskId),
      (task) => task?.statusMessage === 'waiting',
    );
    const b = await startInstance(script, redis.url, 'b2');
    started.push(b);

    const exited = once(a.child, 'exit');
    a.child.kill('SIGTERM');
    const [code, signal] = await exited;
    // Nest ran the shutdown hooks, then raised SIGTERM again: not a crash, not a kill.
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    // The method saw its signal abort before the process ended.
    expect(a.output()).toContain(`aborted ${taskId}`);

    const expected = {
      taskId,
      status: 'cancelled',
      statusMessage:
        'The server running this task shut down before it finished; start the task again.',
    };
    expect(await taskAt(b.url, taskId)).toMatchObject(expected);
    // Not reported lost (failed) by B's stalled-job check, which runs within two locks.
    await pause(3 * LOCK_MS);
    expect(await taskAt(b.url, taskId)).toMatchObject(expected);
  }, 60_000);
});
