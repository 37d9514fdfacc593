import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequest,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { defaultCallerScopes, toScopeList } from '../authorization/caller-scopes.js';
import { ToolCall, type RequestScope, type TransportContext } from '../execution/tool-call.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Builds the SDK's low-level `Server` that answers one serving unit (an HTTP request, a
 * stdio connection). The SDK owns framing, era negotiation and wire shapes; this class
 * only plugs the registry in. The two handlers close over the immutable registry, so a
 * new instance costs the same with 10 tools or 1,000.
 */
export class ProtocolServerFactory {
  private readonly readScopes: RequestScope['readScopes'];

  constructor(
    private readonly options: McpModuleOptions,
    private readonly registry: McpToolRegistry,
  ) {
    const reader = options.callerScopes ?? defaultCallerScopes;
    this.readScopes = (request) => toScopeList(reader(request));
  }

  // `Server` is marked deprecated "for the high-level API"; the SDK keeps it for custom
  // dispatch like ours, where registering every tool on an McpServer per request would
  // cost O(tools) per request.
  create(era: ProtocolEra, transport: TransportContext): Server {
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      {
        capabilities: { tools: { listChanged: false } },
        ...(this.options.instructions && { instructions: this.options.instructions }),
      },
    );
    const scopeOf = (serverContext: ServerContext): RequestScope => ({
      serverContext,
      era,
      transport,
      readScopes: this.readScopes,
    });
    server.setRequestHandler('tools/list', (_request, ctx) => {
      const scope = scopeOf(ctx);
      return this.registry.listFor((name) => new ToolCall(name, {}, scope, 'list'));
    });
    server.setRequestHandler('tools/call', (request, ctx) =>
      this.callTool(server, scopeOf(ctx), request),
    );
    return server;
  }

  private async callTool(server: Server, scope: RequestScope, request: CallToolRequest) {
    const { name, arguments: args = {} } = request.params;
    const tool = this.registry.get(name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". Call tools/list to see the tools this server offers.`,
      );
    }
    const result = await tool.invoke(new ToolCall(name, args, scope));
    return server.projectCallToolResult(result, tool.definition.outputSchema);
  }
}
