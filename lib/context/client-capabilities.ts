import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * What the client of one request declared it can do: on 2026-07-28 each request says so in
 * its `_meta` (`io.modelcontextprotocol/clientCapabilities`); a 2025-era client says so
 * once, in `initialize`, which only a connection (stdio, a 2025 session) remembers.
 * @param legacy what the 2025 connection's `initialize` declared
 */
export function clientCapabilitiesOf(
  serverContext: ServerContext,
  era: ProtocolEra,
  legacy?: () => ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  if (era === 'legacy') return legacy?.();
  const envelope = serverContext.mcpReq.envelope as
    Record<string, ClientCapabilities | undefined> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY];
}

/** The extensions among the capabilities (SEP-2133), by identifier with their settings. */
export function declaredExtensions(
  capabilities: ClientCapabilities | undefined,
): Readonly<Record<string, object>> {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions)
    ? extensions
    : {};
}

/** Whether the capabilities declare the extension `id` (an own key: never an inherited name). */
export const declaresExtension = (capabilities: ClientCapabilities | undefined, id: string) =>
  Object.hasOwn(declaredExtensions(capabilities), id);
