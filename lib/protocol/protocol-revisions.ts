import { SUPPORTED_PROTOCOL_VERSIONS, type ProtocolEra } from '@modelcontextprotocol/server';

/**
 * The modern revision the SDK serves: its `SUPPORTED_MODERN_PROTOCOL_VERSIONS`, which
 * `@modelcontextprotocol/server` 2.4.0 does not export. The one place this library names it.
 */
export const MODERN_REVISION = '2026-07-28';

/**
 * The revisions an SDK server of `era` lists as supported. A server that lists the modern
 * revision answers `server/discover`, and binds to that revision when it is connected to a
 * per-request transport classified so (`PerRequestHTTPServerTransport`): the public way to
 * make a server modern, as the SDK's own entries do. 2025-era servers list the 2025 ones.
 */
export function supportedRevisions(era: ProtocolEra): string[] {
  return era === 'modern'
    ? [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION]
    : [...SUPPORTED_PROTOCOL_VERSIONS];
}
