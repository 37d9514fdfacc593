import { log } from './support/log.js';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { ADD_NUMBERS_JSON_SCHEMA, ADD_NUMBERS_TOOL, EXPECTED_TEXT } from './apps/add-numbers.js';
import { BENCH_MODES, type BenchMode } from './bench.config.js';
import type { MemoryReading, ServerSpec } from './support/ipc.js';
import { runLoad } from './support/load.js';
import { machineInfo } from './support/machine.js';
import {
  printReport,
  type BootstrapSample,
  type HeapSample,
  type Report,
  type VariantReport,
  evaluate,
} from './support/report.js';
import { measureRounds } from './support/rounds.js';
import { ServerHandle } from './support/server-handle.js';
import { median } from './support/stats.js';
import { callRequest, listRequest, messageOf, type WireRequest } from './support/wire.js';

// The benchmark runner: starts each server variant in a process of its own, drives them in
// interleaved rounds with autocannon, and reports medians, ratios and the targets.
// `node dist-bench/run.js [--long]` (see bench/README.md).

type ServerKey = 'ceiling' | 'raw-sdk' | 'ours' | 'list10' | 'list100' | 'list1000';

const SERVERS: Record<ServerKey, ServerSpec> = {
  ceiling: { kind: 'ceiling' },
  'raw-sdk': { kind: 'raw-sdk' },
  ours: { kind: 'mcp', tools: 1 },
  list10: { kind: 'mcp', tools: 10 },
  list100: { kind: 'mcp', tools: 100 },
  list1000: { kind: 'mcp', tools: 1000 },
};

interface LoadVariant {
  id: string;
  label: string;
  server: ServerKey;
  request: WireRequest;
  /** Throws unless a response message is the right answer; returns the body size. */
  check: (message: Record<string, any>) => void;
  tools?: number;
}

const expectCallResult = (message: Record<string, any>) => {
  const text = message.result?.content?.[0]?.text;
  if (text !== EXPECTED_TEXT || message.result?.isError)
    throw new Error(`expected "${EXPECTED_TEXT}", got ${JSON.stringify(message).slice(0, 300)}`);
};

const expectToolCount = (count: number) => (message: Record<string, any>) => {
  const listed = message.result?.tools?.length;
  if (listed !== count) throw new Error(`expected ${count} tools, got ${listed}`);
};

const VARIANTS: LoadVariant[] = [
  {
    id: 'a',
    label: '(a) ceiling: plain Nest route',
    server: 'ceiling',
    request: callRequest('modern'),
    check: expectCallResult,
  },
  {
    id: 'b-2026',
    label: '(b) raw SDK call, 2026-07-28',
    server: 'raw-sdk',
    request: callRequest('modern'),
    check: expectCallResult,
  },
  {
    id: 'b-2025',
    label: '(b) raw SDK call, 2025-11-25',
    server: 'raw-sdk',
    request: callRequest('legacy'),
    check: expectCallResult,
  },
  {
    id: 'c-2026',
    label: '(c) ours call, 2026-07-28',
    server: 'ours',
    request: callRequest('modern'),
    check: expectCallResult,
  },
  {
    id: 'c-2025',
    label: '(c) ours call, 2025-11-25',
    server: 'ours',
    request: callRequest('legacy'),
    check: expectCallResult,
  },
  ...([10, 100, 1000] as const).map((tools): LoadVariant => ({
    id: `d-list-${tools}`,
    label: `(d) ours tools/list, ${tools} tools`,
    server: `list${tools}`,
    request: listRequest('modern'),
    check: expectToolCount(tools),
    tools,
  })),
];

/** One request outside the load: checks the answer and returns the response body size. */
async function probe(url: string, request: WireRequest) {
  const response = await fetch(url + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  return { message: messageOf(response.headers.get('content-type'), text), bytes: text.length };
}

async function listedSchema(server: ServerHandle): Promise<unknown> {
  const { message } = await probe(server.url, listRequest('modern'));
  return message.result.tools.find((tool: any) => tool.name === ADD_NUMBERS_TOOL)?.inputSchema;
}

/** The raw SDK must list the same schema as ours for the comparison to be fair. */
async function checkSameSchema(servers: Record<ServerKey, ServerHandle>): Promise<boolean> {
  const ours = await listedSchema(servers.ours);
  const raw = await listedSchema(servers['raw-sdk']);
  const same = isDeepStrictEqual(ours, raw) && isDeepStrictEqual(ours, ADD_NUMBERS_JSON_SCHEMA);
  if (!same)
    log(`WARNING: schemas differ\n ours ${JSON.stringify(ours)}\n raw  ${JSON.stringify(raw)}`);
  return same;
}

async function measureBootstrap(mode: BenchMode): Promise<BootstrapSample[]> {
  const samples: BootstrapSample[] = [];
  for (let repetition = 0; repetition < mode.bootstrapRepetitions; repetition += 1) {
    for (const mcp of [false, true]) {
      const server = await ServerHandle.start({ kind: 'mcp', tools: mode.bootstrapTools, mcp });
      const memory = await server.memory();
      await server.close();
      samples.push({
        mcp,
        bootMs: server.ready.bootMs,
        sinceProcessStartMs: server.ready.sinceProcessStartMs,
        rss: memory.rss,
        heapUsed: memory.heapUsed,
      });
      log(
        `  bootstrap ${mcp ? 'with' : 'without'} McpModule: ${server.ready.bootMs.toFixed(0)} ms`,
      );
    }
  }
  return samples;
}

async function measureHeap(mode: BenchMode): Promise<HeapSample[]> {
  const server = await ServerHandle.start(SERVERS.ours);
  try {
    // Both wires in turn on every connection.
    const requests = [callRequest('modern'), callRequest('legacy')];
    const load = (amount: number) =>
      runLoad(server.url, requests, { amount, connections: mode.connections });
    await load(mode.heapWarmupCalls);
    const samples: HeapSample[] = [];
    const record = (calls: number, memory: MemoryReading) => {
      samples.push({ calls, heapUsed: memory.heapUsed, rss: memory.rss });
      log(`  heap after ${calls} calls: ${(memory.heapUsed / 2 ** 20).toFixed(2)} MB`);
    };
    record(0, await server.memory());
    const chunk = Math.ceil(mode.heapCalls / 4);
    let calls = 0;
    for (let step = 0; step < 4; step += 1) {
      const result = await load(chunk);
      if (result.non2xx + result.errors > 0) throw new Error('heap run: failed requests');
      calls += result.ok;
      record(calls, await server.memory());
    }
    return samples;
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const modeName = process.argv.includes('--long') ? 'long' : 'short';
  const mode = BENCH_MODES[modeName];
  const startedAt = new Date();
  const machine = machineInfo();
  log(
    `nestjs-mcp bench, ${modeName} mode: ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
  );

  log('(e) bootstrap time and memory');
  const bootstrap = await measureBootstrap(mode);

  log('starting servers');
  // Started together: nothing is measured while they boot.
  const keys = Object.keys(SERVERS) as ServerKey[];
  const handles = await Promise.all(keys.map((key) => ServerHandle.start(SERVERS[key])));
  const servers = Object.fromEntries(keys.map((key, index) => [key, handles[index]!])) as Record<
    ServerKey,
    ServerHandle
  >;
  try {
    const listBytes: Record<number, number> = {};
    for (const variant of VARIANTS) {
      const { message, bytes } = await probe(servers[variant.server].url, variant.request);
      variant.check(message);
      if (variant.tools) listBytes[variant.tools] = bytes;
    }
    const sameSchema = await checkSameSchema(servers);

    const samples = await measureRounds(
      VARIANTS.map((variant) => ({ ...variant, server: servers[variant.server] })),
      mode,
    );

    log('(f) heap growth');
    const heap = await measureHeap(mode);

    const variants: VariantReport[] = VARIANTS.map((variant) => {
      const rounds = samples.get(variant.id)!;
      return {
        id: variant.id,
        label: variant.label,
        rounds,
        median: {
          requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
          p50Ms: median(rounds.map((r) => r.p50Ms)),
          p99Ms: median(rounds.map((r) => r.p99Ms)),
          cpuMsPerRequest: median(rounds.map((r) => r.cpuMsPerRequest)),
        },
        failedRequests: rounds.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
      };
    });

    const report: Report = evaluate({
      mode: modeName,
      settings: mode,
      date: startedAt.toISOString(),
      durationS: (Date.now() - startedAt.getTime()) / 1000,
      machine: { ...machine, loadAverageAtEnd: os.loadavg().map((v) => Math.round(v * 100) / 100) },
      sameSchema,
      variants,
      listBytes,
      bootstrap,
      heap,
    });
    printReport(report);
    // This file runs as dist-bench/run.js; the results belong next to the sources.
    const file = new URL('../bench/results.json', import.meta.url);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`written ${file.pathname}`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
