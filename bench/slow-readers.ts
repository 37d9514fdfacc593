// Slow readers (issue 33, item 3): one `subscriptions/listen` client that stops reading
// while 300,000 `resources/updated` notifications are broadcast, and 20 other clients
// calling a tool all along. What the server's memory does (the stream is closed once
// `http.maxStreamBufferBytes` waits for its client), and the others' latency, against the
// same broadcast with no listener, in the same run (phases none, paused, none, paused: the
// machine's noise shows between the two of a kind).
//
//   npx tsc -p tsconfig.build.json && npx tsc -p bench/tsconfig.json
//   node dist-bench/slow-readers.js [--notifications 300000] [--seconds 10] [--bound 1048576]
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request as httpRequest, type ClientRequest } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { log } from './support/log.js';
import { machineInfo } from './support/machine.js';
import { megabytes, round } from './support/stats.js';
import {
  FEED,
  type MemoryFigures,
  type PublishFigures,
  type SlowReadersAsk,
} from './support/slow-readers-ipc.js';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const NOTIFICATIONS = argument('notifications', 300_000);
const DURATION_MS = argument('seconds', 10) * 1000;
const BOUND = argument('bound', 0);
const CALLERS = 20;
const SERVER = fileURLToPath(new URL('support/slow-readers-server.process.js', import.meta.url));
const REGISTER = new URL('support/register.js', import.meta.url).href;
const MODERN = '2026-07-28';

const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'slow-readers-bench', version: '1' },
};
const headersOf = (method: string, name?: string) => ({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...(name && { 'mcp-name': name }),
});

/** The server process, and its IPC commands. */
async function startServer() {
  const http = BOUND > 0 ? { maxStreamBufferBytes: BOUND } : {};
  const child: ChildProcess = fork(SERVER, [JSON.stringify(http)], {
    execArgv: ['--expose-gc', '--import', REGISTER],
  });
  const [ready] = (await once(child, 'message')) as [{ port: number }];
  let next = 0;
  const ask = <T>(command: SlowReadersAsk): Promise<T> => {
    const id = ++next;
    return new Promise((resolve, reject) => {
      const onMessage = (reply: { id: number; error?: string } & T) => {
        if (reply.id !== id) return;
        child.off('message', onMessage);
        if (reply.error) reject(new Error(reply.error));
        else resolve(reply);
      };
      child.on('message', onMessage);
      child.send({ ...command, id });
    });
  };
  return { url: new URL(`http://127.0.0.1:${ready.port}/mcp`), ask };
}

/** A listen stream that stops reading once its head has come. */
function pausedListener(url: URL) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: [FEED] }, _meta: meta },
  });
  const request: ClientRequest = httpRequest(url, {
    method: 'POST',
    agent: false,
    headers: headersOf('subscriptions/listen'),
  });
  const opened = new Promise<void>((resolve, reject) => {
    request.on('response', (response) => {
      response.on('error', () => undefined);
      response.pause();
      response.socket.pause();
      resolve();
    });
    request.on('error', reject);
  });
  request.on('error', () => undefined);
  request.end(body);
  return { opened, close: () => request.destroy() };
}

/** One `tools/call` on a kept-alive connection; its latency in ms. */
function call(url: URL, agent: Agent): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'ping', arguments: {}, _meta: meta },
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      agent,
      headers: headersOf('tools/call', 'ping'),
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`status ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** `CALLERS` clients, each calling in a loop until `stop()`; their latencies. */
function callers(url: URL) {
  const state = { running: true };
  const latencies: number[] = [];
  const loops = Array.from({ length: CALLERS }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (state.running) latencies.push(await call(url, agent));
    agent.destroy();
  });
  return {
    async stop() {
      state.running = false;
      await Promise.all(loops);
      return latencies;
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

type Listener = 'none' | 'paused';

/** The streams closed at the bound before the current phase (the server counts them all). */
let closedBefore = 0;

async function phase(server: Awaited<ReturnType<typeof startServer>>, listener: Listener) {
  const before = await server.ask<{ memory: MemoryFigures }>({ command: 'memory' });
  const stream = listener === 'paused' ? pausedListener(server.url) : undefined;
  await stream?.opened;
  const load = callers(server.url);
  const { publish } = await server.ask<{ publish: PublishFigures }>({
    command: 'publish',
    count: NOTIFICATIONS,
    durationMs: DURATION_MS,
  });
  const latencies = await load.stop();
  const after = await server.ask<{ memory: MemoryFigures }>({ command: 'memory' });
  stream?.close();
  const closed = closedBefore;
  closedBefore = publish.closedStreams;
  return {
    listener,
    calls: latencies.length,
    p50Ms: round(percentile(latencies, 50), 2),
    p99Ms: round(percentile(latencies, 99), 2),
    publishMs: Math.round(publish.elapsedMs),
    closedStreams: publish.closedStreams - closed,
    rssBeforeMiB: megabytes(before.memory.rss),
    rssPeakMiB: megabytes(publish.peakRss),
    rssAfterGcMiB: megabytes(after.memory.rss),
    heapBeforeMiB: megabytes(before.memory.heapUsed),
    heapPeakMiB: megabytes(publish.peakHeapUsed),
    heapAfterGcMiB: megabytes(after.memory.heapUsed),
  };
}

async function main() {
  const machine = machineInfo();
  const server = await startServer();
  log(`server on ${server.url.href}; warming up`);
  const warm = callers(server.url);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await warm.stop();
  const phases = [];
  for (const listener of ['none', 'paused', 'none', 'paused'] as const) {
    log(`${NOTIFICATIONS} notifications over ${DURATION_MS} ms, listener: ${listener}`);
    phases.push(await phase(server, listener));
    log(JSON.stringify(phases.at(-1)));
  }
  await server.ask({ command: 'close' });
  const report = {
    date: new Date().toISOString(),
    notifications: NOTIFICATIONS,
    durationMs: DURATION_MS,
    callers: CALLERS,
    maxStreamBufferBytes: BOUND > 0 ? BOUND : 'default (1 MiB)',
    loadAverageAtEnd: os.loadavg().map((value) => round(value, 2)),
    machine,
    phases,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
