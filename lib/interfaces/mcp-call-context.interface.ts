import type { ProtocolEra, RequestId, ServerContext } from '@modelcontextprotocol/server';

/**
 * One tool call, as guards, interceptors, filters and `@McpContext()` parameters see it.
 * @publicApi
 */
export interface McpCallContext {
  /** The name of the called tool. */
  readonly toolName: string;
  /** The arguments as the client sent them, before validation and transformation. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** `'modern'` for protocol revision 2026-07-28, `'legacy'` for 2025-era clients. */
  readonly era: ProtocolEra;
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** Fires when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  /**
   * The platform's HTTP request (Express `Request`) over HTTP; `undefined` where there
   * is none. Guards written for HTTP read it through `context.switchToHttp().getRequest()`.
   */
  readonly httpRequest: unknown;
  /** The MCP SDK's own request context, for what this interface does not cover yet. */
  readonly serverContext: ServerContext;
}
