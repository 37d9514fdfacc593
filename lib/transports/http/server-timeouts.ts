import type { Server } from 'node:http';

/** The fields of Node's HTTP server (`http` and `https`) that bound a request's headers. */
type TimedServer = Pick<Server, 'headersTimeout' | 'requestTimeout' | 'listening'> & {
  connectionsCheckingInterval?: number;
};

/**
 * How many checks fall within one `headersTimeout`: a connection is answered 408 at most
 * a quarter of the bound late.
 */
const CHECKS_PER_TIMEOUT = 4;

/** The bound each server was given: with several registrations, the smallest holds. */
const applied = new WeakMap<object, number>();

/**
 * Sets `http.headersTimeoutMs` on the app's HTTP server (Express's and Fastify's are Node
 * `http.Server`s; another kind is left as it is). Node answers a connection whose headers
 * have not all come by then with 408 and closes it.
 *
 * - Node requires `headersTimeout <= requestTimeout` (when both are on), so a lower
 *   `requestTimeout` is raised to it; 0 (Fastify's default: off) stays off.
 * - Node does not time each connection: a timer checks all of them every
 *   `connectionsCheckingInterval` (30 s by default), so a 5 s bound would hold after up to
 *   35 s. The interval is read once, when the server starts listening (lib/_http_server.js,
 *   `setupConnectionsTracking` on 'listening'), so it is set here, at bootstrap, before Nest
 *   calls `listen()`: to a quarter of the bound when that is shorter (a server already
 *   listening keeps its interval). A check walks the open connections in C++ and costs
 *   little beside them.
 */
export function applyHeadersTimeout(server: unknown, headersTimeoutMs: number): void {
  if (!isTimedServer(server)) return;
  const bound = Math.min(headersTimeoutMs, applied.get(server) ?? Infinity);
  applied.set(server, bound);
  server.headersTimeout = bound;
  if (server.requestTimeout > 0 && server.requestTimeout < bound) server.requestTimeout = bound;
  const interval = Math.max(1, Math.ceil(bound / CHECKS_PER_TIMEOUT));
  if (!server.listening && (server.connectionsCheckingInterval ?? Infinity) > interval) {
    server.connectionsCheckingInterval = interval;
  }
}

function isTimedServer(server: unknown): server is TimedServer {
  return (
    typeof server === 'object' &&
    server !== null &&
    typeof (server as TimedServer).headersTimeout === 'number' &&
    typeof (server as TimedServer).requestTimeout === 'number'
  );
}
