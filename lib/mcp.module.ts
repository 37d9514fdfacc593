import {
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { McpPipelineFactory } from './execution/mcp-pipeline.factory.js';
import { PrimitiveInvokerFactory } from './execution/primitive-invoker.factory.js';
import { ToolInvokerFactory } from './execution/tool-invoker.factory.js';
import { VisibilityFactory } from './execution/visibility.factory.js';
import { ToolCallEventsPublisher } from './execution/tool-call-events.publisher.js';
import {
  ASYNC_OPTIONS_TYPE,
  ConfigurableModuleClass,
  OPTIONS_TYPE,
} from './mcp.module-definition.js';
import { McpCoreModule, McpDiscoveryModule } from './mcp-core.module.js';
import { McpServerHost } from './servers/mcp-server.host.js';
import { McpServers } from './servers/mcp-servers.js';
import { PrimitiveBinder } from './registry/primitive.binder.js';
import { MCP_HTTP_CONTROLLER, MCP_HTTP_ENDPOINT } from './transports/http/mcp-http.constants.js';
import { createMcpHttpController } from './transports/http/mcp-http.controller.js';
import { mcpHttpProviders } from './transports/http/mcp-http.providers.js';
import type { StreamableHttpEndpoint } from './transports/http/streamable-http.endpoint.js';

/**
 * Publishes the app's `@McpTool()` methods as an MCP server. Each `forRoot()` /
 * `forRootAsync()` call is a server of its own (name, path, guards and, with `group`, its
 * own entries); inject `McpServers` to reach one by name when there are several.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [McpModule.forRoot({ name: 'catalog', version: '1.0.0', http: { guards: [AuthGuard] } })],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({
  imports: [McpCoreModule, McpDiscoveryModule],
  providers: [
    McpPipelineFactory,
    ToolInvokerFactory,
    PrimitiveInvokerFactory,
    PrimitiveBinder,
    VisibilityFactory,
    ToolCallEventsPublisher,
    McpServerHost,
    ...mcpHttpProviders,
  ],
  exports: [McpServerHost],
})
export class McpModule
  extends ConfigurableModuleClass
  implements OnModuleDestroy, OnApplicationShutdown
{
  constructor(
    @Inject(MCP_HTTP_ENDPOINT) private readonly endpoint: StreamableHttpEndpoint | null,
    host: McpServerHost,
    servers: McpServers,
  ) {
    super();
    // While the app's providers are created: two registrations with the same name or HTTP
    // path fail the bootstrap here.
    servers.register(host);
  }

  static forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    return McpModule.withHttpController(super.forRoot(options), options.http !== false);
  }

  static forRootAsync(options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
    return McpModule.withHttpController(super.forRootAsync(options), true);
  }

  private static withHttpController(module: DynamicModule, serveHttp: boolean): DynamicModule {
    const controller = createMcpHttpController();
    return {
      ...module,
      controllers: serveHttp ? [controller] : [],
      providers: [
        ...(module.providers ?? []),
        { provide: MCP_HTTP_CONTROLLER, useValue: controller },
      ],
    };
  }

  /**
   * The first shutdown hook `app.close()` runs (the HTTP server still accepts requests):
   * new MCP requests get 503 from here on, and those in flight are answered, within
   * `http.shutdownTimeoutMs`, before the HTTP server closes.
   */
  async onModuleDestroy(): Promise<void> {
    await this.endpoint?.shutdown();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.endpoint?.close();
  }
}
