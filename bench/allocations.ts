import type { AllocationReading, TelemetrySetup } from './support/ipc.js';
import { runLoad } from './support/load.js';
import { ServerHandle } from './support/server-handle.js';
import { callRequest } from './support/wire.js';

// Bytes allocated per `tools/call` (2026-07-28) by the app of ours (c) with each
// OpenTelemetry setup of (g), garbage included, by V8's sampling heap profiler in the
// server: a measure that does not move with the machine's load, beside (g)'s CPU ratios.
// `node dist-bench/allocations.js [--setups absent,floor-node,sdk] [--calls N]`.

const DEFAULT_SETUPS: TelemetrySetup[] = ['absent', 'floor', 'basic', 'floor-node', 'sdk'];

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

async function measure(setup: TelemetrySetup, calls: number): Promise<AllocationReading> {
  const server = await ServerHandle.start({ kind: 'mcp', tools: 1, telemetry: setup });
  try {
    const request = callRequest('modern');
    await runLoad(server.url, request, { durationS: 3, connections: 10 });
    await server.allocationsStart();
    const load = await runLoad(server.url, request, { amount: calls, connections: 10 });
    if (load.non2xx + load.errors > 0) throw new Error(`${setup}: failed requests`);
    return await server.allocationsStop();
  } finally {
    await server.close();
  }
}

/** KiB per request of a reading, as a table cell. */
const perRequest = (reading: AllocationReading, bytes: number) =>
  (bytes / Math.max(1, reading.requests) / 1024).toFixed(2).padStart(12);

async function main(): Promise<void> {
  const setups = (argument('--setups')?.split(',') as TelemetrySetup[]) ?? DEFAULT_SETUPS;
  const calls = Number(argument('--calls') ?? 20_000);
  const readings = new Map<TelemetrySetup, AllocationReading>();
  for (const setup of setups) readings.set(setup, await measure(setup, calls));
  const groups = [...new Set([...readings.values()].flatMap((r) => Object.keys(r.bytesByGroup)))];
  console.log(`KiB allocated per request, ${calls} calls each`);
  console.log(`${''.padEnd(28)}${setups.map((setup) => setup.padStart(12)).join('')}`);
  for (const group of [...groups, 'all']) {
    const cells = setups.map((setup) => {
      const reading = readings.get(setup)!;
      const bytes =
        group === 'all'
          ? Object.values(reading.bytesByGroup).reduce((sum, value) => sum + value, 0)
          : (reading.bytesByGroup[group] ?? 0);
      return perRequest(reading, bytes);
    });
    console.log(`${group.padEnd(28)}${cells.join('')}`);
  }
  for (const [setup, reading] of readings) {
    console.log(`\n${setup}: the functions that allocated most, KiB per request`);
    for (const [where, bytes] of reading.top.slice(0, 12))
      console.log(`${perRequest(reading, bytes)}  ${where}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
