import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpTaskJob } from '../../lib/interfaces/mcp-scale-out.interface.js';
import {
  BullMqTaskQueue,
  LOST_TASK_REASON,
  type BullMqTaskQueueOptions,
} from '../../lib/redis/bullmq-task.queue.js';
import { freePort, startRedisServer, type RedisServer } from '../support/redis-server.js';

const WORKER_FIXTURE = fileURLToPath(
  new URL('../fixtures/redis/queue-worker.mjs', import.meta.url),
);
const PREFIX = 'mcp-test';
// Generous: each wait polls for what a user would see, and ends as soon as it is true.
const WAIT = { timeout: 15_000, interval: 50 };

const silent = { log() {}, error() {}, warn() {} };

function taskJob(overrides: Partial<McpTaskJob> = {}): McpTaskJob {
  return {
    taskId: randomUUID(),
    toolName: 'import_prices',
    arguments: { batchId: 'b-1', rows: [1, 2, 3] },
    era: 'modern',
    locale: 'en',
    requestId: 7,
    caller: {
      authInfo: { clientId: 'c', scopes: ['prices:write'] },
      user: { id: 'u1' },
    },
    ttlMs: 60_000,
    createdAt: Date.now(),
    ...overrides,
  };
}

/** Makes `queue` work; the jobs its `run` was called with, in order. */
function recordingWorker(queue: BullMqTaskQueue, run?: (job: McpTaskJob) => Promise<void>) {
  const ran: McpTaskJob[] = [];
  queue.work(async (job) => {
    ran.push(job);
    await run?.(job);
  });
  return ran;
}

describe('BullMqTaskQueue (BullMQ on a real redis-server)', () => {
  let server: RedisServer;
  let admin: Redis;
  const connections: Redis[] = [];
  const queues: BullMqTaskQueue[] = [];
  const children: ChildProcess[] = [];
  let queueName = '';

  /** An instance of the app: its own connection (the integration's) and its own queue. */
  function instance(options: Partial<BullMqTaskQueueOptions> = {}, url = server.url) {
    const connection = new Redis(url, { lazyConnect: true });
    connection.on('error', () => undefined);
    connections.push(connection);
    const queue = new BullMqTaskQueue({
      connection,
      name: queueName,
      prefix: PREFIX,
      logger: silent,
      ...options,
    });
    queues.push(queue);
    return queue;
  }

  async function jobState(taskId: string): Promise<string | null> {
    const hash = await admin.hgetall(`${PREFIX}:${queueName}:${taskId}`);
    if (hash.finishedOn === undefined) return null;
    return hash.failedReason === undefined ? 'completed' : 'failed';
  }

  /** The `XREAD` of a QueueEvents of this queue is waiting on Redis: it sees new failures. */
  async function eventsListening(count: number): Promise<void> {
    const name = `${PREFIX}:${Buffer.from(queueName).toString('base64')}:qe`;
    await vi.waitFor(async () => {
      const clients = String(await admin.call('CLIENT', 'LIST')).split('\n');
      const reading = clients.filter((c) => c.includes(`name=${name} `) && c.includes('cmd=xread'));
      expect(reading.length).toBe(count);
    }, WAIT);
  }

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
    for (const connection of connections.splice(0)) connection.disconnect();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
  });
  let counter = 0;
  function freshQueueName() {
    queueName = `tasks-${++counter}`;
  }

  it('runs a task enqueued by an instance that does not work on another one, with its data, once', async () => {
    freshQueueName();
    const a = instance();
    const b = instance();
    const ran = recordingWorker(b);
    const job = taskJob();
    await a.enqueue(job);
    await a.enqueue(job);
    await vi.waitFor(async () => expect(await jobState(job.taskId)).toBe('completed'), WAIT);
    // Enqueued again after it ended (on any instance): still the same job.
    await b.enqueue(job);
    await a.enqueue(job);
    const later = taskJob();
    await a.enqueue(later);
    await vi.waitFor(async () => expect(await jobState(later.taskId)).toBe('completed'), WAIT);
    expect(ran.map((j) => j.taskId)).toEqual([job.taskId, later.taskId]);
    expect(ran[0]).toEqual(job);
  });

  it('shares 20 tasks between two workers, each run exactly once', async () => {
    freshQueueName();
    const producer = instance();
    const first = recordingWorker(instance({ concurrency: 3 }));
    const second = recordingWorker(instance({ concurrency: 3 }));
    const jobs = Array.from({ length: 20 }, () => taskJob());
    await Promise.all(jobs.map((job) => producer.enqueue(job)));
    await vi.waitFor(async () => {
      const states = await Promise.all(jobs.map((job) => jobState(job.taskId)));
      expect(states.every((state) => state === 'completed')).toBe(true);
    }, WAIT);
    const ranIds = [...first, ...second].map((job) => job.taskId);
    expect(ranIds.toSorted()).toEqual(jobs.map((job) => job.taskId).toSorted());
  });

  it('reports a task whose worker was killed as lost on the other instances, and never runs it again', async () => {
    freshQueueName();
    const lockDurationMs = 1_000;
    const producer = instance({ lockDurationMs });
    const lostOnProducer: [McpTaskJob, string][] = [];
    producer.onLost((job, reason) => lostOnProducer.push([job, reason]));
    await eventsListening(1);
    const doomed = taskJob();
    await producer.enqueue(doomed);

    // The only worker so far is a child process; it takes the task and never finishes it.
    const child = spawn(
      process.execPath,
      [WORKER_FIXTURE, server.url, queueName, PREFIX, String(lockDurationMs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await vi.waitFor(() => expect(stdout).toContain(`taken ${doomed.taskId}`), WAIT);
    child.kill('SIGKILL');
    await once(child, 'exit');

    // A surviving instance works (and so runs the stalled checks) and listens too.
    const survivor = instance({ lockDurationMs });
    const lostOnSurvivor: [McpTaskJob, string][] = [];
    survivor.onLost((job, reason) => lostOnSurvivor.push([job, reason]));
    await eventsListening(2);
    const ran = recordingWorker(survivor);
    await vi.waitFor(() => {
      expect(lostOnProducer).toEqual([[doomed, LOST_TASK_REASON]]);
      expect(lostOnSurvivor).toEqual([[doomed, LOST_TASK_REASON]]);
    }, WAIT);
    expect(await jobState(doomed.taskId)).toBe('failed');
    // The survivor still works: a new task runs, and the killed one was not run again.
    const next = taskJob();
    await producer.enqueue(next);
    await vi.waitFor(async () => expect(await jobState(next.taskId)).toBe('completed'), WAIT);
    expect(ran.map((job) => job.taskId)).toEqual([next.taskId]);
    expect([lostOnProducer.length, lostOnSurvivor.length]).toEqual([1, 1]);
    expect(LOST_TASK_REASON).toMatch(/stopped before it finished; start the task again/);
  });

  it('fails a task whose run throws without reporting it lost', async () => {
    freshQueueName();
    const lockDurationMs = 1_000;
    const producer = instance({ lockDurationMs });
    const lost: McpTaskJob[] = [];
    producer.onLost((job) => lost.push(job));
    await eventsListening(1);
    const failing = taskJob({ toolName: 'explodes' });
    const hanging = taskJob({ toolName: 'hangs' });
    const first = instance({ lockDurationMs });
    const ran = recordingWorker(first, async (job) => {
      if (job.toolName === 'explodes') throw new Error('the method threw');
      if (job.toolName === 'hangs') await new Promise(() => undefined);
    });
    await producer.enqueue(failing);
    await vi.waitFor(async () => expect(await jobState(failing.taskId)).toBe('failed'), WAIT);
    const failedReason = await admin.hget(
      `${PREFIX}:${queueName}:${failing.taskId}`,
      'failedReason',
    );
    expect(failedReason).toContain('the method threw');

    // A task lost after it (its instance closed while it ran; another instance works on):
    // the event stream is read in order, so once this loss is reported the failure before
    // it was read too.
    await producer.enqueue(hanging);
    await vi.waitFor(() => expect(ran.map((job) => job.taskId)).toContain(hanging.taskId), WAIT);
    await first.close();
    recordingWorker(instance({ lockDurationMs }));
    await vi.waitFor(() => expect(lost.map((job) => job.taskId)).toEqual([hanging.taskId]), WAIT);
  });

  it('keeps a task that runs longer than its lock (a task waiting for answers) on its worker', async () => {
    freshQueueName();
    const lockDurationMs = 1_000;
    const watcher = instance({ lockDurationMs });
    const lost: McpTaskJob[] = [];
    watcher.onLost((job) => lost.push(job));
    await eventsListening(1);
    const parked = taskJob();
    await watcher.enqueue(parked);
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- replaced by the run below
    let release: () => void = () => undefined;
    const ran = recordingWorker(
      instance({ lockDurationMs }),
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    await vi.waitFor(() => expect(ran).toHaveLength(1), WAIT);
    // Two working instances run stalled checks while the run is pending, over several lock
    // durations: the renewed lock keeps the task where it is.
    const checker = recordingWorker(instance({ lockDurationMs }));
    // Each stalled check leaves its time in this key (for a while): wait for three of them.
    const checks = new Set<string>();
    await vi.waitFor(async () => {
      const at = await admin.get(`${PREFIX}:${queueName}:stalled-check`);
      if (at) checks.add(at);
      expect(checks.size).toBeGreaterThanOrEqual(3);
    }, WAIT);
    expect(await jobState(parked.taskId)).toBeNull();
    release();
    await vi.waitFor(async () => expect(await jobState(parked.taskId)).toBe('completed'), WAIT);
    expect(checker).toEqual([]);
    expect(lost).toEqual([]);
  });

  it('rejects enqueue with "Redis is unavailable" when Redis is down, instead of waiting', async () => {
    freshQueueName();
    // Never reachable: nothing listens on the port.
    const nowhere = instance({ commandTimeoutMs: 1_000 }, `redis://127.0.0.1:${await freePort()}`);
    await expect(nowhere.enqueue(taskJob())).rejects.toThrow(
      /^Redis is unavailable: .*ECONNREFUSED/,
    );

    // Reachable, then gone.
    const own = await startRedisServer();
    try {
      const queue = instance({ commandTimeoutMs: 1_000 }, own.url);
      await queue.enqueue(taskJob());
      await own.stop();
      await expect(queue.enqueue(taskJob())).rejects.toThrow(/^Redis is unavailable: /);
      // Back again: the queue reconnects by itself.
      await own.restart();
      await vi.waitFor(() => queue.enqueue(taskJob()), WAIT);
    } finally {
      await own.stop();
    }
  });

  it('closes while Redis is away, its connections waiting to reconnect', async () => {
    freshQueueName();
    const own = await startRedisServer();
    try {
      const queue = instance({ commandTimeoutMs: 1_000 }, own.url);
      const ran = recordingWorker(queue);
      queue.onLost(() => undefined);
      await queue.enqueue(taskJob());
      await vi.waitFor(() => expect(ran).toHaveLength(1), WAIT);
      await own.stop();
      // Every connection of the queue has lost its socket and waits to reconnect: BullMQ's
      // QueueEvents would wait for an `end` its connection never emits.
      await vi.waitFor(() => expect(queue.enqueue(taskJob())).rejects.toThrow(/unavailable/), WAIT);
      await queue.close();
      await expect(queue.enqueue(taskJob())).rejects.toThrow(/closed/);
    } finally {
      await own.stop();
    }
  });

  it('closes everything it opened, and close() may be called again', async () => {
    freshQueueName();
    const clientsBefore = await clientCount(admin);
    const handlesBefore = openHandles();
    const connection = new Redis(server.url);
    const queue = new BullMqTaskQueue({
      connection,
      name: queueName,
      prefix: PREFIX,
      logger: silent,
    });
    const ran = recordingWorker(queue);
    queue.onLost(() => undefined);
    const job = taskJob();
    await queue.enqueue(job);
    await vi.waitFor(() => expect(ran).toHaveLength(1), WAIT);
    await eventsListening(1);
    expect(await clientCount(admin)).toBeGreaterThan(clientsBefore + 1);

    await queue.close();
    await queue.close();
    await expect(queue.enqueue(taskJob())).rejects.toThrow(/closed/);
    // Only the integration's own connection is left, and the integration closes it.
    await vi.waitFor(async () => expect(await clientCount(admin)).toBe(clientsBefore + 1), WAIT);
    await connection.quit();
    await vi.waitFor(async () => expect(await clientCount(admin)).toBe(clientsBefore), WAIT);
    // No socket or timer more than before (vi.waitFor would count its own timers).
    const deadline = Date.now() + WAIT.timeout;
    while (moreThan(handlesBefore).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, WAIT.interval));
    }
    expect(moreThan(handlesBefore)).toEqual([]);
  });
});

async function clientCount(admin: Redis): Promise<number> {
  const list = String(await admin.call('CLIENT', 'LIST'));
  return list.split('\n').filter((line) => line.trim() !== '').length;
}

/** The kinds of handle of which more are open than `before`, with their counts. */
function moreThan(before: Record<string, number>): [string, number][] {
  return Object.entries(openHandles()).filter(([kind, count]) => count > (before[kind] ?? 0));
}

/** The sockets and timers of this process, by kind. */
function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'TCPSocketWrap' || kind === 'Timeout' || kind === 'TCPWRAP') {
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
  }
  return counts;
}
