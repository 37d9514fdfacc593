import { ADD_NUMBERS_TOOL, CALL_ARGUMENTS } from '../apps/add-numbers.js';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';
export const MCP_PATH = '/mcp';

export type Wire = 'modern' | 'legacy';

/** One HTTP request of the load: what autocannon sends over and over. */
export interface WireRequest {
  readonly method: 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * A JSON-RPC request as a client of each era sends it: 2026-07-28 with the `_meta`
 * envelope and the `Mcp-Method`/`Mcp-Name` headers; 2025-11-25 on the stateless legacy
 * leg, which needs no `initialize` first.
 */
export function wireRequest(
  wire: Wire,
  method: 'tools/call' | 'tools/list',
  params: Record<string, unknown> = {},
): WireRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': wire === 'modern' ? MODERN_VERSION : LEGACY_VERSION,
  };
  const fullParams: Record<string, unknown> = { ...params };
  if (wire === 'modern') {
    headers['mcp-method'] = method;
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
    fullParams._meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: fullParams });
  return { method: 'POST', path: MCP_PATH, headers, body };
}

export const callRequest = (wire: Wire): WireRequest =>
  wireRequest(wire, 'tools/call', { name: ADD_NUMBERS_TOOL, arguments: CALL_ARGUMENTS });

export const listRequest = (wire: Wire): WireRequest => wireRequest(wire, 'tools/list');

/** The JSON-RPC message of a response body, whether sent as JSON or as one SSE event. */
export function messageOf(contentType: string | null, text: string): Record<string, any> {
  if (contentType?.startsWith('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6));
    return JSON.parse(data.at(-1) ?? 'null');
  }
  return JSON.parse(text);
}
