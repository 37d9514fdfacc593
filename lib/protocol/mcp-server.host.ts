import type { Tool } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { McpExplorer, type HiddenTool } from '../discovery/mcp.explorer.js';
import { ToolInvokerFactory } from '../execution/tool-invoker.factory.js';
import { ToolVisibilityFactory } from '../execution/tool-visibility.factory.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { validateMcpModuleOptions } from '../mcp-module-options.validator.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { McpToolRegistry } from './mcp-tool.registry.js';
import { ProtocolServerFactory } from './protocol-server.factory.js';

/**
 * One MCP server of the app: its options, its tools and the factory of SDK servers that
 * every transport uses. The tools are discovered in `onModuleInit`, when every provider
 * exists and before the app listens. Inject it to see what the server publishes.
 * @publicApi
 */
@Injectable()
export class McpServerHost implements OnModuleInit {
  private readonly logger = new Logger('McpModule');
  readonly options: McpModuleOptions;
  private serverFactory?: ProtocolServerFactory;
  private toolRegistry?: McpToolRegistry;
  private hidden: readonly HiddenTool[] = [];

  constructor(
    @Inject(MCP_MODULE_OPTIONS) options: unknown,
    private readonly explorer: McpExplorer,
    private readonly invokerFactory: ToolInvokerFactory,
    private readonly visibilityFactory: ToolVisibilityFactory,
  ) {
    // Checked here, the first consumer, so forRoot and every forRootAsync form fail alike.
    this.options = validateMcpModuleOptions(options);
  }

  onModuleInit(): void {
    const { tools, hidden } = this.explorer.explore();
    this.hidden = hidden;
    this.toolRegistry = new McpToolRegistry(
      tools.map((tool) => ({
        definition: tool.definition,
        invoke: this.invokerFactory.create(tool),
        isVisible: this.visibilityFactory.create(tool),
      })),
    );
    this.serverFactory = new ProtocolServerFactory(this.options, this.toolRegistry);
    this.logger.log(`MCP server "${this.options.name}" publishes ${tools.length} tool(s)`);
  }

  /** Every published tool, as `tools/list` shows it to a caller whom no guard rejects. */
  tools(): Tool[] {
    return this.ready(this.toolRegistry).definitions();
  }

  /** Methods kept off MCP with `@McpHidden()` or `@McpTool({ hidden })`, with the reasons. */
  hiddenTools(): readonly HiddenTool[] {
    return this.hidden;
  }

  /** @internal The factory of SDK servers, for the transports. */
  get servers(): ProtocolServerFactory {
    return this.ready(this.serverFactory);
  }

  private ready<T>(value: T | undefined): T {
    if (value === undefined) {
      throw new Error(
        'The MCP server is not initialised yet: call app.init() (or app.listen()) first.',
      );
    }
    return value;
  }
}
