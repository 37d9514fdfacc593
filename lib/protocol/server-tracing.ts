import type { MessageExtraInfo, ProtocolEra, ServerContext } from '@modelcontextprotocol/server';
import type { TransportCaller } from '../execution/mcp-call.js';
import { traceListenStream } from '../telemetry/listen-stream.tracer.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import type { CatalogMcpServer } from './catalog-mcp.server.js';

/** How long a server lives: one HTTP request, or a connection (stdio, a 2025 session). */
export interface ServingUnit {
  /**
   * A connection that outlives requests gets change notifications (list changed,
   * subscribed resources updated) pushed to it until it closes.
   * @default false
   */
  readonly live?: boolean;
}

/**
 * Telemetry of a server: each request of its connections, and the `subscriptions/listen`
 * stream the SDK's HTTP entry serves without connecting it. A server that serves one
 * request is left alone while no provider is registered; one that serves a connection
 * decides per request.
 * @param knows whether a `tools/call` or `prompts/get` names an entry of the catalog
 */
export function traceServer(
  telemetry: McpTelemetry,
  product: CatalogMcpServer,
  era: ProtocolEra,
  transport: TransportCaller | ((serverContext: ServerContext) => TransportCaller),
  unit: ServingUnit,
  knows: (method: string, name: unknown) => boolean,
): void {
  if (!unit.live && !telemetry.recording) return;
  if (era === 'modern' && typeof transport !== 'function') {
    traceListenStream(telemetry, transport.request, transport.response);
  }
  const { server } = product;
  // A 2025 session resolves the platform request per message, from the web request the
  // SDK's transport hands over with it (the one field the session's resolver reads).
  const platformRequestOf =
    typeof transport === 'function'
      ? (extra?: MessageExtraInfo) =>
          transport({ http: { req: extra?.request } } as ServerContext).request
      : () => transport.request;
  product.traceWith(telemetry, {
    era,
    session: unit.live === true && era === 'legacy',
    platformRequestOf,
    // The SDK's accessor is deprecated for handlers (which read the request's envelope);
    // it is what knows the revision `initialize` negotiated on a 2025 connection.
    protocolVersion: (extra) =>
      extra?.classification?.revision ??
      server.getNegotiatedProtocolVersion() ??
      extra?.request?.headers.get('mcp-protocol-version') ??
      undefined,
    knows,
  });
}
