import { EXPECTED_TEXT } from '../apps/add-numbers.js';
import type { ServerSpec, TelemetryReading } from './ipc.js';
import type { RoundSample, VariantReport } from './report.js';
import { ServerHandle } from './server-handle.js';
import { median } from './stats.js';
import { TELEMETRY_SETUPS } from './telemetry-report.js';
import {
  callRequest,
  LEGACY_VERSION,
  listRequest,
  messageOf,
  MODERN_VERSION,
  type Wire,
  type WireRequest,
} from './wire.js';

const wireVersion = (wire: Wire) => (wire === 'modern' ? MODERN_VERSION : LEGACY_VERSION);
const wireYear = (wire: Wire) => wireVersion(wire).slice(0, 4);

// The load variants of bench/run.ts, their servers, and the checks of their answers.

export type ServerKey =
  | 'ceiling'
  | 'raw-sdk'
  | 'ours'
  | 'list10'
  | 'list100'
  | 'list1000'
  | 'ours-sdk'
  | 'list100-sdk'
  | 'mcp-nest'
  | 'mcp-nest-list100'
  | 'i18n'
  | 'i18n-list100'
  | `telemetry-${(typeof TELEMETRY_SETUPS)[number]['setup']}`;

export const SERVERS = {
  ceiling: { kind: 'ceiling' },
  'raw-sdk': { kind: 'raw-sdk' },
  ours: { kind: 'mcp', tools: 1 },
  list10: { kind: 'mcp', tools: 10 },
  list100: { kind: 'mcp', tools: 100 },
  list1000: { kind: 'mcp', tools: 1000 },
  // (i): ours with every request through the SDK's web-standard entry.
  'ours-sdk': { kind: 'mcp', tools: 1, leanPath: false },
  'list100-sdk': { kind: 'mcp', tools: 100, leanPath: false },
  // (h): the peer, `@rekog/mcp-nest`.
  'mcp-nest': { kind: 'mcp-nest', tools: 1 },
  'mcp-nest-list100': { kind: 'mcp-nest', tools: 100 },
  // (j): ours with `i18n` (German texts, English the default; support/i18n-report.ts).
  i18n: { kind: 'mcp', tools: 1, i18n: true },
  'i18n-list100': { kind: 'mcp', tools: 100, i18n: true },
  // The telemetry experiment (g): the server of ours (c), with each OpenTelemetry setup.
  ...Object.fromEntries(
    TELEMETRY_SETUPS.map(({ setup }) => [
      `telemetry-${setup}`,
      { kind: 'mcp', tools: 1, telemetry: setup } satisfies ServerSpec,
    ]),
  ),
} as Record<ServerKey, ServerSpec>;

export interface LoadVariant {
  id: string;
  label: string;
  server: ServerKey;
  request: WireRequest;
  /** Throws unless a response message is the right answer; returns the body size. */
  check: (message: Record<string, any>) => void;
  tools?: number;
}

export const expectCallResult = (message: Record<string, any>) => {
  const text = message.result?.content?.[0]?.text;
  if (text !== EXPECTED_TEXT || message.result?.isError)
    throw new Error(`expected "${EXPECTED_TEXT}", got ${JSON.stringify(message).slice(0, 300)}`);
};

export const expectToolCount = (count: number) => (message: Record<string, any>) => {
  const listed = message.result?.tools?.length;
  if (listed !== count) throw new Error(`expected ${count} tools, got ${listed}`);
};

export const VARIANTS: LoadVariant[] = [
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
  ...(['modern', 'legacy'] as const).map((wire): LoadVariant => ({
    id: `h-${wireYear(wire)}`,
    label: `(h) MCP-Nest call, ${wireVersion(wire)}`,
    server: 'mcp-nest',
    request: callRequest(wire),
    check: expectCallResult,
  })),
  {
    id: 'h-list-100',
    label: '(h) MCP-Nest tools/list, 100 tools',
    server: 'mcp-nest-list100',
    request: listRequest('modern'),
    check: expectToolCount(100),
  },
  ...(['modern', 'legacy'] as const).map((wire): LoadVariant => ({
    id: `i-${wireYear(wire)}`,
    label: `(i) ours leanPath off, ${wireVersion(wire)}`,
    server: 'ours-sdk',
    request: callRequest(wire),
    check: expectCallResult,
  })),
  {
    id: 'i-list-100',
    label: '(i) ours leanPath off, list 100',
    server: 'list100-sdk',
    request: listRequest('modern'),
    check: expectToolCount(100),
  },
];

/** The telemetry experiment (g): the app of ours (c) with each OpenTelemetry setup. */
export function telemetryVariants(alone: boolean): LoadVariant[] {
  return TELEMETRY_SETUPS.filter((setup) => alone || !setup.aloneOnly).map((setup) => {
    return {
      id: setup.id,
      label: setup.label,
      server: `telemetry-${setup.setup}` as const,
      request: callRequest('modern'),
      check: expectCallResult,
    };
  });
}

/** Starts the servers of the variants together (nothing is measured while they boot). */
export async function startServers(
  variants: readonly LoadVariant[],
): Promise<Partial<Record<ServerKey, ServerHandle>>> {
  const keys = [...new Set(variants.map((variant) => variant.server))];
  const handles = await Promise.all(keys.map((key) => ServerHandle.start(SERVERS[key])));
  return Object.fromEntries(keys.map((key, index) => [key, handles[index]!]));
}

/** What each telemetry server exported, by variant id. */
export async function telemetryReadings(
  variants: readonly LoadVariant[],
  servers: Partial<Record<ServerKey, ServerHandle>>,
): Promise<Record<string, TelemetryReading>> {
  const telemetry = variants.filter((variant) => variant.server.startsWith('telemetry-'));
  const readings = await Promise.all(telemetry.map((v) => servers[v.server]!.telemetry()));
  return Object.fromEntries(telemetry.map((variant, index) => [variant.id, readings[index]!]));
}

/** Medians across rounds, and failed requests, of each variant. */
export function variantReports(
  variants: readonly LoadVariant[],
  samples: Map<string, RoundSample[]>,
): VariantReport[] {
  return variants.map((variant) => {
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
}

/** One request outside the load: checks the answer and returns the response body size. */
export async function probe(url: string, request: WireRequest) {
  const response = await fetch(url + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  return { message: messageOf(response.headers.get('content-type'), text), bytes: text.length };
}
