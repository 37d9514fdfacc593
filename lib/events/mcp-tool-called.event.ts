import type { ProtocolEra, RequestId } from '@modelcontextprotocol/server';

/** The name under which `McpToolCalledEvent`s are emitted through `@nestjs/event-emitter`. */
export const MCP_TOOL_CALLED_EVENT = 'mcp.tool.called';

/**
 * One executed tool call, published after its response was sent. Calls refused by a guard
 * or by argument validation and calls answered from a cache (the method did not run) are
 * not executed calls and publish nothing.
 * @publicApi
 */
export interface McpToolCalledEvent {
  readonly server: string;
  readonly tool: string;
  /** `request.user` of the HTTP request, as the app's auth set it (undefined when anonymous). */
  readonly caller: unknown;
  /** Time from the start of the call to its result, in milliseconds. */
  readonly durationMs: number;
  /** `'error'` when the result has `isError: true` (a thrown error included). */
  readonly outcome: 'success' | 'error';
  readonly era: ProtocolEra;
  readonly requestId: RequestId;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly at: Date;
}
