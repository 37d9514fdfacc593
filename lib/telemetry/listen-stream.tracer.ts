import { McpOperation } from './mcp-operation.js';
import type { McpTelemetry } from './mcp-telemetry.js';
import { httpPeerOf } from './peer-facts.js';

interface PlatformExchange {
  headers?: Record<string, unknown>;
  body?: unknown;
}

interface Closable {
  once?: (event: 'close', listener: () => void) => unknown;
  raw?: Closable;
}

/**
 * A 2026-07-28 `subscriptions/listen` over HTTP never reaches a server's transport: the
 * SDK's HTTP entry builds a server only to read its capabilities, then serves the stream
 * itself. Its operation starts with that server (the `Mcp-Method` header, which the entry
 * has checked against the body, names the method) and ends when the stream closes.
 */
export function traceListenStream(
  telemetry: McpTelemetry,
  platformRequest: unknown,
  platformResponse: unknown,
): void {
  const request = (platformRequest ?? {}) as PlatformExchange;
  if (request.headers?.['mcp-method'] !== 'subscriptions/listen' || !telemetry.recording) return;
  // The body, when the platform parsed it (Express' JSON parser, Fastify).
  const body = (typeof request.body === 'object' && request.body) || {};
  const { id, params } = body as { id?: unknown; params?: unknown };
  const version = request.headers['mcp-protocol-version'];
  const operation = new McpOperation(telemetry, {
    method: 'subscriptions/listen',
    ...((typeof id === 'string' || typeof id === 'number') && { id }),
    params:
      typeof params === 'object' && params !== null
        ? (params as Record<string, unknown>)
        : undefined,
    peer: httpPeerOf(platformRequest),
    knownTarget: false,
    protocolVersion: () => (typeof version === 'string' ? version : undefined),
  });
  const response = (platformResponse ?? {}) as Closable;
  const stream = typeof response.once === 'function' ? response : response.raw;
  if (typeof stream?.once === 'function') stream.once('close', () => operation.end());
  else operation.end();
}
