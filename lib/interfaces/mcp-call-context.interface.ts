import type { ProtocolEra, RequestId, ServerContext } from '@modelcontextprotocol/server';

/**
 * Why guards run: `'call'` before a tool runs, `'list'` to decide whether a caller sees the
 * tool in `tools/list`. One rule then both hides a tool and refuses its call; a guard that
 * wants a tool listed but refuses some calls tells the two apart with this.
 */
export type McpPhase = 'list' | 'call';

/**
 * One tool call, as guards, interceptors, filters and `@McpContext()` parameters see it.
 * @publicApi
 */
export interface McpCallContext {
  /** The name of the tool called, or considered for the list. */
  readonly toolName: string;
  /** Whether guards run for a call or for listing. */
  readonly phase: McpPhase;
  /**
   * The caller's scopes, as the `callerScopes` option of `McpModule` reads them from the
   * request (by default `request.user.scopes`, then `request.auth.scopes`).
   */
  readonly scopes: readonly string[];
  /** The arguments as the client sent them, before validation and transformation; `{}` when listing. */
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
