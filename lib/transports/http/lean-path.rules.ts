import {
  classifyInboundRequest,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { MODERN_REVISION } from '../../protocol/protocol-revisions.js';
import { isPlainObject } from '../../utils/value-checks.util.js';

/**
 * The protocol rules the lean path restates, all in this file. Everything else comes from
 * the SDK's exports (`classifyInboundRequest`, `isJsonContentType`, `parseJSONRPCMessage`)
 * or from the SDK's own `Server`/`Protocol`, which still validates, dispatches and encodes
 * every lean request. Each rule below is a condition for TAKING the lean path, stricter
 * than the SDK's: a request that fails one goes to the SDK's entry, which answers it
 * (including every error of its validation ladder). Written against
 * `@modelcontextprotocol/server` 2.4.0 (`createMcpHandler`, `PerRequestHTTPServerTransport`,
 * `WebStandardStreamableHTTPServerTransport`).
 */

/** Methods that dominate traffic and need nothing but a request and its answer. */
const MODERN_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'server/discover',
]);
/** `server/discover` does not exist on the 2025 wire (a claim-less one is a legacy probe). */
const LEGACY_METHODS: ReadonlySet<string> = new Set(
  [...MODERN_METHODS].filter((method) => method !== 'server/discover'),
);

/**
 * SEP-2243 (2026-07-28, Streamable HTTP, "Standard request headers"): `Mcp-Name` mirrors
 * `params.name` of `tools/call` and `prompts/get` and `params.uri` of `resources/read`.
 * The SDK checks it in `validateStandardRequestHeaders` (not exported).
 */
export const NAME_FIELD: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** One request the lean path may serve, as the SDK would have dispatched it. */
export interface LeanRoute {
  readonly era: ProtocolEra;
  readonly message: JSONRPCRequest;
  /** The edge classification the SDK hands to the protocol layer (modern era only). */
  readonly classification?: MessageClassification;
}

/** What the route check needs from the catalog. */
export interface LeanCatalogFacts {
  /** Whether a tool runs as a task (`tasks/*` then decides its answer: the SDK's). */
  readonly isTaskTool: (name: string) => boolean;
  /** Whether a tool declares `x-mcp-header` parameters (SEP-2243 `Mcp-Param-*` checks). */
  readonly declaresParamHeaders: (name: string) => boolean;
}

/** A request header given once (a repeated one is not the protocol's). */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The lean route of a POST, or `undefined` for the SDK's entry.
 * @param legacyStateless whether 2025-era traffic is served per request (no `legacySessions`)
 */
export function leanRouteOf(
  request: IncomingMessage,
  body: unknown,
  legacyStateless: boolean,
  catalog: LeanCatalogFacts,
): LeanRoute | undefined {
  // JSON-RPC 2.0 §4: one request object (batches, notifications and responses go to the SDK).
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return undefined;
  const { method, id, params } = body;
  if (typeof method !== 'string' || !MODERN_METHODS.has(method)) return undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  // Streamable HTTP (2025-06-18 and 2026-07-28), "Sending messages to the server": a POST
  // body is `application/json`; the SDK answers anything else with 415.
  if (!isJsonContentType(header(request, 'content-type') ?? null)) return undefined;
  const meta = params?._meta;
  if (meta !== undefined && !isPlainObject(meta)) return undefined;
  // Input-required flows (2026-07-28, "Multi round-trip requests"), tasks (SEP-2663 and
  // 2025-11-25 "Tasks": `params.task`), progress (basic/utilities/progress: a
  // `progressToken`) and logs (2026-07-28 `_meta` log level) send or stream more than one
  // answer, or carry state: the SDK's entry serves them.
  if (params?.inputResponses !== undefined || params?.requestState !== undefined) return undefined;
  if (params?.task !== undefined) return undefined;
  if (meta?.progressToken !== undefined || meta?.[LOG_LEVEL_META_KEY] !== undefined) {
    return undefined;
  }
  const nameField = NAME_FIELD[method];
  const name = nameField && params?.[nameField];
  if (method === 'tools/call' && typeof name === 'string') {
    if (catalog.isTaskTool(name) || catalog.declaresParamHeaders(name)) return undefined;
  }
  const protocolVersionHeader = header(request, 'mcp-protocol-version');
  const mcpMethodHeader = header(request, 'mcp-method');
  const mcpNameHeader = header(request, 'mcp-name');
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    ...(protocolVersionHeader !== undefined && { protocolVersionHeader }),
    ...(mcpMethodHeader !== undefined && { mcpMethodHeader }),
    ...(mcpNameHeader !== undefined && { mcpNameHeader }),
    body,
  });
  if (outcome.kind === 'modern') {
    if (outcome.messageKind !== 'request') return undefined;
    // The revision the request claims must be the one served (else -32004 from the SDK).
    if (outcome.classification.revision !== MODERN_REVISION) return undefined;
    // SEP-2243: `MCP-Protocol-Version` and `Mcp-Method` are required on every modern
    // request (the classifier has already checked they agree with the body when present),
    // and `Mcp-Name` on the named methods, equal to the body's value. Only the exact,
    // unencoded match is lean (a `=?base64?...?=` value or OWS goes to the SDK).
    if (protocolVersionHeader !== MODERN_REVISION || mcpMethodHeader !== method) return undefined;
    if (nameField && (typeof name !== 'string' || mcpNameHeader !== name)) return undefined;
    return { era: 'modern', message: outcome.message, classification: outcome.classification };
  }
  if (outcome.kind !== 'legacy' || outcome.reason !== 'no-claim' || !legacyStateless) {
    return undefined;
  }
  return legacyRouteOf(request, body, method, protocolVersionHeader);
}

/**
 * Whether a 2025-era POST is one the SDK's legacy transport serves statelessly with an answer
 * the lean and fast paths may give as one JSON object.
 */
export function isStatelessLegacyExchange(
  request: IncomingMessage,
  protocolVersionHeader: string | undefined,
): boolean {
  // Streamable HTTP 2025-06-18 / 2025-11-25, "Protocol Version Header": a stateless client
  // sends `MCP-Protocol-Version` with every request; without it (or with a version the SDK
  // does not serve) the SDK's legacy transport decides. "Session Management": a request
  // with `Mcp-Session-Id` belongs to a session.
  if (
    protocolVersionHeader === undefined ||
    !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersionHeader) ||
    request.headers['mcp-session-id'] !== undefined
  ) {
    return false;
  }
  // "Sending messages to the server": the client MUST accept both `application/json` and
  // `text/event-stream` (the SDK's legacy transport answers 406 otherwise), and the server
  // may answer a request with one JSON object: these paths always do.
  const accept = header(request, 'accept');
  return accept?.includes('application/json') === true && accept.includes('text/event-stream');
}

/** The lean route of a 2025-era request the SDK would serve statelessly, if it is one. */
function legacyRouteOf(
  request: IncomingMessage,
  body: unknown,
  method: string,
  protocolVersionHeader: string | undefined,
): LeanRoute | undefined {
  if (!LEGACY_METHODS.has(method) || !isStatelessLegacyExchange(request, protocolVersionHeader)) {
    return undefined;
  }
  let message: JSONRPCMessage;
  try {
    // What the legacy transport hands to the protocol layer: the schema's parse of the body.
    message = parseJSONRPCMessage(body);
  } catch {
    return undefined;
  }
  return { era: 'legacy', message: message as JSONRPCRequest };
}

/**
 * The HTTP status of a JSON-RPC answer, as the SDK's transports give it.
 * 2026-07-28 (`PerRequestHTTPServerTransport.send`, the SDK's `LADDER_ERROR_HTTP_STATUS`):
 * an error produced while the message is being delivered (the protocol layer's gates:
 * era, unknown method, envelope) gets the ladder's status (400, or 404 for -32601), and
 * -32021 (missing client capability) is 400 wherever it comes from; everything else,
 * handler errors included, is 200. 2025 (`WebStandardStreamableHTTPServerTransport`):
 * every answer of the protocol layer is 200.
 */
const LADDER_ERROR_HTTP_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  // HEADER_MISMATCH_ERROR_CODE (SEP-2243)
  [-32020]: 400,
};

export function statusOf(
  era: ProtocolEra,
  errorCode: number | undefined,
  duringDelivery: boolean,
): number {
  if (era !== 'modern' || errorCode === undefined) return 200;
  if (!duringDelivery && errorCode !== ProtocolErrorCode.MissingRequiredClientCapability) {
    return 200;
  }
  return LADDER_ERROR_HTTP_STATUS[errorCode] ?? 200;
}
