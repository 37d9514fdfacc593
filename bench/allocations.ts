import {
  allocationsAgainstPlainRoute,
  kibPerRequest,
  measureAllocations,
  plainRouteLines,
} from './support/allocation-run.js';
import type { AllocationReading, TelemetrySetup } from './support/ipc.js';
import { callRequest } from './support/wire.js';

// Bytes allocated per request, garbage included, by V8's sampling heap profiler in the
// server: a measure that does not move with the machine's load. Two comparisons:
// `--ceiling`: `tools/call` of ours (c) on both wires against the plain route (a), the ratio
// issue 28 sets a target on; otherwise the app of ours with each OpenTelemetry setup of (g).
// `node dist-bench/allocations.js --ceiling [--calls N]`,
// `node dist-bench/allocations.js [--setups absent,floor-node,sdk] [--calls N]`.

const DEFAULT_SETUPS: TelemetrySetup[] = ['absent', 'floor', 'basic', 'floor-node', 'sdk'];

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** KiB per request, as a table cell. */
const cell = (reading: AllocationReading, group?: string) =>
  kibPerRequest(reading, group).toFixed(2).padStart(12);

async function telemetrySetups(calls: number): Promise<void> {
  const setups = (argument('--setups')?.split(',') as TelemetrySetup[]) ?? DEFAULT_SETUPS;
  const readings = new Map<TelemetrySetup, AllocationReading>();
  for (const setup of setups)
    readings.set(
      setup,
      await measureAllocations(
        { kind: 'mcp', tools: 1, telemetry: setup },
        callRequest('modern'),
        calls,
      ),
    );
  const groups = [...new Set([...readings.values()].flatMap((r) => Object.keys(r.bytesByGroup)))];
  console.log(`KiB allocated per request, ${calls} calls each`);
  console.log(`${''.padEnd(28)}${setups.map((setup) => setup.padStart(12)).join('')}`);
  for (const group of [...groups, 'all']) {
    const cells = setups.map((setup) =>
      cell(readings.get(setup)!, group === 'all' ? undefined : group),
    );
    console.log(`${group.padEnd(28)}${cells.join('')}`);
  }
  for (const [setup, reading] of readings) {
    console.log(`\n${setup}: the functions that allocated most, KiB per request`);
    for (const [where, bytes] of reading.top.slice(0, 12))
      console.log(
        `${(bytes / Math.max(1, reading.requests) / 1024).toFixed(2).padStart(12)}  ${where}`,
      );
  }
}

async function main(): Promise<void> {
  const calls = Number(argument('--calls') ?? 20_000);
  if (process.argv.includes('--ceiling'))
    console.log(plainRouteLines(await allocationsAgainstPlainRoute(calls), 25).join('\n'));
  else await telemetrySetups(calls);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
