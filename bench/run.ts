import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { ADD_NUMBERS_JSON_SCHEMA, ADD_NUMBERS_TOOL } from './apps/add-numbers.js';
import { BENCH_MODES, TELEMETRY_EXPERIMENT, type BenchMode } from './bench.config.js';
import { allocationsAgainstPlainRoute } from './support/allocation-run.js';
import type { MemoryReading } from './support/ipc.js';
import { runLoad } from './support/load.js';
import { log } from './support/log.js';
import { machineInfo } from './support/machine.js';
import {
  evaluate,
  printReport,
  variantTable,
  type BootstrapSample,
  type HeapSample,
  type Report,
} from './support/report.js';
import { measureRounds } from './support/rounds.js';
import { ServerHandle } from './support/server-handle.js';
import { evaluateTelemetry } from './support/telemetry-report.js';
import { runTelemetryAlone } from './support/telemetry-run.js';
import {
  checkLocalizedAnswers,
  evaluateI18n,
  I18N_EXPERIMENT,
  i18nLines,
  i18nVariants,
} from './support/i18n-report.js';
import { runI18nAlone } from './support/i18n-run.js';
import {
  probe,
  SERVERS,
  startServers,
  telemetryReadings,
  telemetryVariants,
  VARIANTS,
  variantReports,
  type ServerKey,
} from './support/variants.js';
import { callRequest, listRequest, type Wire } from './support/wire.js';

// The benchmark runner: starts each server variant in a process of its own, drives them in
// interleaved rounds with autocannon, and reports medians, ratios and the targets.
// `node dist-bench/run.js [--long]`, the telemetry experiment alone:
// `node dist-bench/run.js --only telemetry [--rounds N]`, the localization bench alone:
// `node dist-bench/run.js --only i18n [--rounds N]`, or some load variants alone:
// `node dist-bench/run.js --only c-2026,h-2026 [--rounds N]` (see bench/README.md).

async function listedSchema(server: ServerHandle, wire: Wire): Promise<unknown> {
  const { message } = await probe(server.url, listRequest(wire));
  return message.result.tools.find((tool: any) => tool.name === ADD_NUMBERS_TOOL)?.inputSchema;
}

/**
 * Every MCP server of the run (the raw SDK, ours, MCP-Nest) must list the same schema for
 * `add_numbers`, on both wires, for the comparison to be fair.
 */
async function checkSameSchema(
  servers: Partial<Record<ServerKey, ServerHandle>>,
): Promise<boolean> {
  let same = true;
  for (const [key, server] of Object.entries(servers)) {
    if (key === 'ceiling' || !server) continue;
    for (const wire of ['modern', 'legacy'] as const) {
      const listed = await listedSchema(server, wire);
      if (isDeepStrictEqual(listed, ADD_NUMBERS_JSON_SCHEMA)) continue;
      same = false;
      log(`WARNING: ${key} (${wire}) lists another schema: ${JSON.stringify(listed)}`);
    }
  }
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

/**
 * `--only c-2026,h-2026,...`: those load variants alone (answers checked, the same rounds),
 * printed as the table; no bootstrap, heap or targets, and bench/results.json is left alone.
 */
async function runVariantsAlone(ids: string[], mode: BenchMode): Promise<void> {
  const all = [...VARIANTS, ...telemetryVariants(true), ...i18nVariants(false)];
  const chosen = ids.map((id) => {
    const variant = all.find((v) => v.id === id);
    if (!variant)
      throw new Error(`no variant "${id}"; known: telemetry, ${all.map((v) => v.id).join(', ')}`);
    return variant;
  });
  const rounds = Number(option('--rounds') ?? mode.rounds);
  const servers = await startServers(chosen);
  try {
    for (const variant of chosen)
      variant.check((await probe(servers[variant.server]!.url, variant.request)).message);
    const sameSchema = await checkSameSchema(servers);
    const samples = await measureRounds(
      chosen.map((variant) => ({ ...variant, server: servers[variant.server]! })),
      { ...mode, rounds },
    );
    const lines = variantTable(variantReports(chosen, samples));
    process.stdout.write(
      `\n${lines.join('\n')}\n${sameSchema ? '' : 'WARNING: the servers list different input schemas\n'}`,
    );
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const modeName = process.argv.includes('--long') ? 'long' : 'short';
  const mode = BENCH_MODES[modeName];
  const only = option('--only');
  if (only === 'i18n') {
    const rounds = Number(option('--rounds') ?? I18N_EXPERIMENT.rounds);
    return runI18nAlone(
      { ...mode, rounds, primeS: Math.max(mode.primeS, I18N_EXPERIMENT.primeS) },
      modeName,
    );
  }
  if (only !== undefined && only !== 'telemetry') return runVariantsAlone(only.split(','), mode);
  if (only !== undefined) {
    const rounds = Number(option('--rounds') ?? TELEMETRY_EXPERIMENT.rounds);
    return runTelemetryAlone(
      { ...mode, rounds, primeS: Math.max(mode.primeS, TELEMETRY_EXPERIMENT.primeS) },
      modeName,
    );
  }
  const startedAt = new Date();
  const machine = machineInfo();
  log(
    `nestjs-mcp bench, ${modeName} mode: ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
  );

  log('(e) bootstrap time and memory');
  const bootstrap = await measureBootstrap(mode);

  log('starting servers');
  const localized = i18nVariants(false);
  const variantsRun = [...VARIANTS, ...telemetryVariants(false), ...localized];
  const servers = await startServers(variantsRun);
  try {
    const listBytes: Record<number, number> = {};
    for (const variant of variantsRun) {
      const { message, bytes } = await probe(servers[variant.server]!.url, variant.request);
      variant.check(message);
      if (variant.tools) listBytes[variant.tools] = bytes;
    }
    const sameSchema = await checkSameSchema(servers);
    const i18nBytes = await checkLocalizedAnswers(localized, servers);

    const samples = await measureRounds(
      variantsRun.map((variant) => ({ ...variant, server: servers[variant.server]! })),
      mode,
    );
    const readings = await telemetryReadings(variantsRun, servers);

    log('(f) heap growth');
    const heap = await measureHeap(mode);

    log('(k) allocations per call: ours (c) on both wires against the plain route (a)');
    const allocations = await allocationsAgainstPlainRoute(mode.allocationCalls);

    const variants = variantReports(variantsRun, samples);

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
      allocations,
      telemetry: evaluateTelemetry(variants, readings),
    });
    const i18n = evaluateI18n(variants, i18nBytes);
    report.targets.push(...i18n.targets);
    printReport(report, allocations);
    process.stdout.write(`${i18nLines(i18n).join('\n')}\n\n`);
    // This file runs as dist-bench/run.js; the results belong next to the sources.
    const file = new URL('../bench/results.json', import.meta.url);
    writeFileSync(file, `${JSON.stringify({ ...report, i18n }, null, 2)}\n`);
    log(`written ${file.pathname}`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
