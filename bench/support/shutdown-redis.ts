// The Redis part of bench/shutdown.ts: the built sample (dist-sample/main.js) as two
// instances on one redis-server, as docs/scale-out.md runs it (tasks on the BullMQ queue
// `mcp-tasks`). A `reindex_catalog` task is started; the instance that runs it (A) gets
// SIGTERM while it runs; the other (B) is asked for the task afterwards, and again once
// the queue's stalled-job check has had time to run (two lock durations).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';

const ADMIN_TOKEN = 'admin-token';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const LOCK_MS = 2_000;

interface Instance {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor<T>(what: string, read: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

function startSample(root: string, name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['dist-sample/main.js'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return waitFor(`sample ${name}`, () => {
    if (child.exitCode !== null) throw new Error(`sample ${name} exited:\n${output}`);
    const url = /MCP endpoint: (\S+)/.exec(output)?.[1];
    return url ? { name, url, child, output: () => output } : undefined;
  });
}

/** One 2026-07-28 request as the admin, declaring the tasks extension: its JSON-RPC answer. */
async function call(url: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(params.name ?? params.taskId),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    }),
  });
  const text = await res.text();
  const data = text.trim().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6);
  return JSON.parse(data) as Record<string, any>;
}

/** What B says of the task: its status, status message, and error or result. */
async function taskOn(instance: Instance, taskId: string): Promise<string> {
  const { result, error } = await call(instance.url, 'tasks/get', { taskId });
  if (error) return `error ${JSON.stringify(error)}`;
  const { status, statusMessage } = result;
  const outcome = result.error ?? result.result;
  return `${status}${statusMessage ? ` ("${statusMessage}")` : ''}${outcome ? ` ${JSON.stringify(outcome)}` : ''}`;
}

export async function runRedisShutdown(root: string): Promise<boolean> {
  console.log('\n### Redis (the sample, two instances, tasks on the BullMQ queue)\n');
  if (!existsSync(join(root, 'dist-sample/main.js'))) {
    console.log('- skipped: dist-sample/main.js is missing (npm run build:sample)');
    return false;
  }
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const instances: Instance[] = [];
  try {
    await pause(300);
    const env = {
      SAMPLE_REDIS_URL: `redis://127.0.0.1:${port}`,
      SAMPLE_STATE_SECRET: 'c'.repeat(64),
      SAMPLE_TASK_LOCK_MS: String(LOCK_MS),
    };
    instances.push(
      ...(await Promise.all(
        ['one', 'two'].map((name) => startSample(root, name, { ...env, SAMPLE_INSTANCE_ID: name })),
      )),
    );
    const created = await call(instances[0]!.url, 'tools/call', {
      name: 'reindex_catalog',
      arguments: {},
    });
    const taskId = created.result?.taskId as string | undefined;
    if (!taskId) throw new Error(`no task: ${JSON.stringify(created)}`);
    // A is whichever instance's worker took the job.
    const a = await waitFor('the instance running the task', () =>
      instances.find((instance) => instance.output().includes(`(task ${taskId})`)),
    );
    const b = instances.find((instance) => instance !== a)!;
    const before = await taskOn(b, taskId);
    const exited = once(a.child, 'exit') as Promise<[number | null, string | null]>;
    const signalled = performance.now();
    a.child.kill('SIGTERM');
    const [code, signal] = await exited;
    const exitMs = Math.round(performance.now() - signalled);
    const after = await taskOn(b, taskId);
    await pause(2 * LOCK_MS + 1_000);
    const later = await taskOn(b, taskId);
    console.log(`- task ${taskId} on B before SIGTERM to A: ${before}`);
    console.log(`- A (${a.name}) exit: code ${code}, signal ${signal}, ${exitMs} ms after SIGTERM`);
    console.log(`- on B right after A exited: ${after}`);
    console.log(`- on B ${2 * LOCK_MS + 1_000} ms later (after the stalled-job check): ${later}`);
    const warnings = a
      .output()
      .split('\n')
      .filter((line) => /WARN|ERROR/.test(line));
    if (warnings.length > 0) console.log(`- A's log:\n${warnings.map((l) => `  ${l}`).join('\n')}`);
    const ok =
      !after.startsWith('working') && after === later && (code === 0 || signal === 'SIGTERM');
    console.log(`- verdict: ${ok ? 'holds' : 'FAILS'}`);
    return ok;
  } finally {
    const running = instances.filter(({ child }) => child.exitCode === null && !child.signalCode);
    for (const instance of running) instance.child.kill('SIGTERM');
    await Promise.all(running.map((instance) => once(instance.child, 'exit')));
    redis.kill('SIGTERM');
  }
}
