import autocannon, { type AutocannonResult } from 'autocannon';
import type { WireRequest } from './wire.js';

export interface LoadOptions {
  /** Seconds of load; or give `amount`. */
  durationS?: number;
  /** Requests in all; or give `durationS`. */
  amount?: number;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Latency percentiles in ms (autocannon's histogram has a 1 ms resolution). */
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
}

/**
 * Drives one server with autocannon. Several requests are sent in turn on each
 * connection (used to mix the two wires).
 */
export async function runLoad(
  url: string,
  requests: WireRequest | readonly WireRequest[],
  options: LoadOptions,
): Promise<LoadResult> {
  const list = Array.isArray(requests) ? requests : [requests as WireRequest];
  const result: AutocannonResult = await autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationS ?? 1 }),
    requests: list.map(({ method, path, headers, body }) => ({ method, path, headers, body })),
  });
  const ok = result['2xx'];
  return {
    requestsPerSecond: ok / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: result.duration,
  };
}
