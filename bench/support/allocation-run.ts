import type { AllocationReading, ServerSpec } from './ipc.js';
import { runLoad } from './load.js';
import { ServerHandle } from './server-handle.js';
import { round } from './stats.js';
import { callRequest, type WireRequest } from './wire.js';

// Bytes allocated per request, garbage included, by V8's sampling heap profiler in a fresh
// server: a figure that does not move with the machine's load, where CPU time does. Used by
// `node dist-bench/allocations.js` and by the full run (issue 28's allocation target).

/** Warms a fresh server up, then samples what it allocates over `calls` requests. */
export async function measureAllocations(
  spec: ServerSpec,
  request: WireRequest,
  calls: number,
): Promise<AllocationReading> {
  const server = await ServerHandle.start(spec);
  try {
    await runLoad(server.url, request, { durationS: 3, connections: 10 });
    await server.allocationsStart();
    const load = await runLoad(server.url, request, { amount: calls, connections: 10 });
    if (load.non2xx + load.errors > 0) throw new Error('allocations: failed requests');
    return await server.allocationsStop();
  } finally {
    await server.close();
  }
}

/** KiB per request of one group of a reading, or of all of it. */
export function kibPerRequest(reading: AllocationReading, group?: string): number {
  const bytes =
    group === undefined
      ? Object.values(reading.bytesByGroup).reduce((sum, value) => sum + value, 0)
      : (reading.bytesByGroup[group] ?? 0);
  return bytes / Math.max(1, reading.requests) / 1024;
}

/** The plain route (a) and ours (c) on each wire, as in the load variants of the same ids. */
export const PLAIN_ROUTE_COMPARISON = [
  { id: 'a', spec: { kind: 'ceiling' }, request: callRequest('modern') },
  { id: 'c-2026', spec: { kind: 'mcp', tools: 1 }, request: callRequest('modern') },
  { id: 'c-2025', spec: { kind: 'mcp', tools: 1 }, request: callRequest('legacy') },
] as const satisfies ReadonlyArray<{ id: string; spec: ServerSpec; request: WireRequest }>;

export interface PlainRouteAllocations {
  calls: number;
  /** KiB allocated per request, by variant id. */
  kibPerRequest: Record<string, number>;
  /** Ours ÷ the plain route (below 1: ours allocates less). */
  oursToPlain2026: number;
  oursToPlain2025: number;
  readings: Record<string, AllocationReading>;
}

/** `tools/call` of ours on both wires against the plain route, in KiB per request. */
export async function allocationsAgainstPlainRoute(calls: number): Promise<PlainRouteAllocations> {
  const readings: Record<string, AllocationReading> = {};
  for (const { id, spec, request } of PLAIN_ROUTE_COMPARISON)
    readings[id] = await measureAllocations(spec, request, calls);
  const kib = Object.fromEntries(
    Object.entries(readings).map(([id, reading]) => [id, round(kibPerRequest(reading), 2)]),
  );
  return {
    calls,
    kibPerRequest: kib,
    oursToPlain2026: round(kib['c-2026']! / kib.a!, 2),
    oursToPlain2025: round(kib['c-2025']! / kib.a!, 2),
    readings,
  };
}

const cell = (value: number) => value.toFixed(2).padStart(10);

/** The comparison as text lines: KiB per request by who allocated it, and the ratios. */
export function plainRouteLines(result: PlainRouteAllocations, top = 0): string[] {
  const ids = Object.keys(result.readings);
  const groups = [
    ...new Set(Object.values(result.readings).flatMap((r) => Object.keys(r.bytesByGroup))),
  ];
  const lines = [
    `KiB allocated per request (${result.calls.toLocaleString('en')} calls each, fresh servers)`,
    `${''.padEnd(28)}${ids.map((id) => id.padStart(10)).join('')}`,
    ...[...groups, 'all'].map(
      (group) =>
        `${group.padEnd(28)}${ids
          .map((id) =>
            cell(kibPerRequest(result.readings[id]!, group === 'all' ? undefined : group)),
          )
          .join('')}`,
    ),
    `ours / plain route: ${result.oursToPlain2026.toFixed(2)} (2026-07-28), ${result.oursToPlain2025.toFixed(2)} (2025-11-25)`,
  ];
  if (top > 0)
    for (const id of ids) {
      const reading = result.readings[id]!;
      lines.push('', `${id}: the functions that allocated most, KiB per request`);
      for (const [where, bytes] of reading.top.slice(0, top))
        lines.push(`${cell(bytes / Math.max(1, reading.requests) / 1024)}  ${where}`);
    }
  return lines;
}
