/**
 * The names the OpenTelemetry semantic conventions for MCP give to spans, attributes and
 * metrics (open-telemetry/semantic-conventions-genai: docs/gen-ai/mcp.md, model/mcp/).
 * They are written out here rather than imported from `@opentelemetry/semantic-conventions`,
 * which is not a dependency of this package and marks them as incubating.
 */
export const ATTR = {
  MCP_METHOD_NAME: 'mcp.method.name',
  MCP_PROTOCOL_VERSION: 'mcp.protocol.version',
  MCP_RESOURCE_URI: 'mcp.resource.uri',
  MCP_SESSION_ID: 'mcp.session.id',
  JSONRPC_REQUEST_ID: 'jsonrpc.request.id',
  RPC_RESPONSE_STATUS_CODE: 'rpc.response.status_code',
  ERROR_TYPE: 'error.type',
  GEN_AI_OPERATION_NAME: 'gen_ai.operation.name',
  GEN_AI_TOOL_NAME: 'gen_ai.tool.name',
  GEN_AI_PROMPT_NAME: 'gen_ai.prompt.name',
  GEN_AI_TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  GEN_AI_TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  CLIENT_ADDRESS: 'client.address',
  CLIENT_PORT: 'client.port',
  NETWORK_TRANSPORT: 'network.transport',
  NETWORK_PROTOCOL_NAME: 'network.protocol.name',
  NETWORK_PROTOCOL_VERSION: 'network.protocol.version',
  CODE_FUNCTION_NAME: 'code.function.name',
} as const;

/** `gen_ai.operation.name` of a `tools/call` (and of no other method). */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `tools/call` answered with an `isError: true` result. */
export const TOOL_ERROR = 'tool_error';

/** What stands for a value that is not one of a known few (a method no handler serves). */
export const OTHER = '_OTHER';

/** `error.type` of a request whose caller cancelled it (no answer is sent). */
export const CANCELLED = 'cancelled';

/** `error.type` of a request still unanswered when its connection closed. */
export const CONNECTION_CLOSED = 'connection_closed';

export const METRIC = {
  OPERATION_DURATION: 'mcp.server.operation.duration',
  SESSION_DURATION: 'mcp.server.session.duration',
} as const;

/** The bucket boundaries (seconds) the conventions give both duration histograms. */
export const DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/**
 * The attributes `mcp.server.operation.duration` carries: those of the span that stay few
 * (no request id, session id, client address, URI or payload).
 */
export const OPERATION_METRIC_ATTRIBUTES: readonly string[] = [
  ATTR.MCP_METHOD_NAME,
  ATTR.ERROR_TYPE,
  ATTR.GEN_AI_PROMPT_NAME,
  ATTR.GEN_AI_TOOL_NAME,
  ATTR.RPC_RESPONSE_STATUS_CODE,
  ATTR.GEN_AI_OPERATION_NAME,
  ATTR.MCP_PROTOCOL_VERSION,
  ATTR.NETWORK_PROTOCOL_NAME,
  ATTR.NETWORK_PROTOCOL_VERSION,
  ATTR.NETWORK_TRANSPORT,
];

/** The methods whose `params.uri` is `mcp.resource.uri`. */
export const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
]);
