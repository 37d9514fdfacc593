import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequest,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { ToolCall, type TransportContext } from '../execution/tool-call.js';
import type { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Builds the SDK's low-level `Server` that answers one serving unit (an HTTP request, a
 * stdio connection). The SDK owns framing, era negotiation and wire shapes; this class
 * only plugs the registry in. The two handlers close over the immutable registry, so a
 * new instance costs the same with 10 tools or 1,000.
 */
export class ProtocolServerFactory {
  constructor(
    private readonly options: McpModuleOptions,
    private readonly registry: McpToolRegistry,
  ) {}

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
    server.setRequestHandler('tools/list', () => this.registry.listResult());
    server.setRequestHandler('tools/call', (request, ctx) =>
      this.callTool(server, era, transport, request, ctx),
    );
    return server;
  }

  private async callTool(
    server: Server,
    era: ProtocolEra,
    transport: TransportContext,
    request: CallToolRequest,
    ctx: ServerContext,
  ) {
    const { name, arguments: args = {} } = request.params;
    const tool = this.registry.get(name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". Call tools/list to see the tools this server offers.`,
      );
    }
    const result = await tool.invoke(new ToolCall(name, args, ctx, era, transport));
    return server.projectCallToolResult(result, tool.definition.outputSchema);
  }
}
