import {
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { McpPipelineFactory } from './execution/mcp-pipeline.factory.js';
import { JsonRpcInvokerFactory } from './execution/json-rpc-invoker.factory.js';
import { ToolInvokerFactory } from './execution/tool-invoker.factory.js';
import { VisibilityFactory } from './execution/visibility.factory.js';
import { ToolCallEventsPublisher } from './execution/tool-call-events.publisher.js';
import type {
  McpModuleAsyncOptions,
  McpModuleOptions,
} from './interfaces/mcp-module-options.interface.js';
import { ConfigurableModuleClass, MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
import { MCP_TASK_STORE } from './mcp.constants.js';
import { InMemoryTaskStore } from './tasks/in-memory-task.store.js';
import { checkMcpModuleAsyncOptions } from './options/mcp-module-async-options.validator.js';
import {
  failingOptionsProvider,
  withValidatedOptions,
} from './options/validated-options.provider.js';
import { mcpExplorerProvider } from './explorer/explorer.providers.js';
import { McpCoreModule, McpDiscoveryModule } from './mcp-core.module.js';
import { ProtocolRuntime } from './protocol/protocol.runtime.js';
import { ProtocolRuntimes } from './protocol/protocol-runtimes.js';
import { CatalogAssembler } from './registry/catalog.assembler.js';
import { PrimitiveBinder } from './registry/primitive.binder.js';
import { McpServerHost } from './servers/mcp-server.host.js';
import { MCP_HTTP_CONTROLLER, MCP_HTTP_ENDPOINT } from './transports/http/mcp-http.constants.js';
import { createMcpHttpController } from './transports/http/mcp-http.controller.js';
import { mcpHttpProviders } from './transports/http/mcp-http.providers.js';
import { applyHeadersTimeout } from './transports/http/server-timeouts.js';
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
    JsonRpcInvokerFactory,
    PrimitiveBinder,
    VisibilityFactory,
    ToolCallEventsPublisher,
    CatalogAssembler,
    ProtocolRuntime,
    McpServerHost,
    {
      // The app's store, else the one every instance shares (`scaleOut`), else one in this
      // process; the server's ProtocolRuntime closes the one the module made.
      provide: MCP_TASK_STORE,
      useFactory: ({ tasks, scaleOut, name }: McpModuleOptions) =>
        tasks?.store ??
        scaleOut?.taskStore(name, { maxTasks: tasks?.maxTasks }) ??
        new InMemoryTaskStore({ maxTasks: tasks?.maxTasks }),
      inject: [MCP_MODULE_OPTIONS],
    },
    ...mcpHttpProviders,
    mcpExplorerProvider,
  ],
  exports: [McpServerHost, MCP_TASK_STORE],
})
export class McpModule
  extends ConfigurableModuleClass
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  constructor(
    @Inject(MCP_HTTP_ENDPOINT) private readonly endpoint: StreamableHttpEndpoint | null,
    runtime: ProtocolRuntime,
    runtimes: ProtocolRuntimes,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
    // While the app's providers are created: two registrations with the same name or HTTP
    // path fail the bootstrap here.
    runtimes.register(runtime);
  }

  /**
   * A server with these options. They are checked when the app bootstraps: an unknown key
   * or a wrong value stops it with an `McpConfigurationError` that says what to change.
   */
  static forRoot(options: McpModuleOptions): DynamicModule {
    const serveHttp = (options as McpModuleOptions | undefined)?.http !== false;
    return McpModule.withHttpController(withValidatedOptions(super.forRoot(options)), serveHttp);
  }

  /**
   * A server whose options come from a factory (`useFactory` with `inject`, `useClass` or
   * `useExisting`), such as one reading a `ConfigService`. What it returns is checked like
   * the options of `forRoot()`, when the app bootstraps.
   */
  static forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    const problem = checkMcpModuleAsyncOptions(options);
    if (problem !== undefined) {
      // Reported when the app bootstraps, as a mistake in what the factory returns is.
      return McpModule.withHttpController(
        { module: McpModule, providers: [failingOptionsProvider(problem)] },
        false,
      );
    }
    const { extraProviders = [], ...builderOptions } = options;
    const module = withValidatedOptions(super.forRootAsync(builderOptions));
    return McpModule.withHttpController(
      { ...module, providers: [...(module.providers ?? []), ...extraProviders] },
      true,
    );
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
   * `http.headersTimeoutMs` is the app's HTTP server's: set once it exists (Nest makes it
   * with the app) and before `listen()` starts it (see server-timeouts.ts).
   */
  onApplicationBootstrap(): void {
    const headersTimeoutMs = (this.options.http || undefined)?.headersTimeoutMs;
    if (this.endpoint && headersTimeoutMs) {
      applyHeadersTimeout(this.adapterHost.httpAdapter?.getHttpServer(), headersTimeoutMs);
    }
  }

  /**
   * The first shutdown hook `app.close()` runs (the HTTP server still accepts requests):
   * new MCP requests get 503 from here on, and those in flight are answered, within
   * `http.shutdownTimeoutMs` (past it, cut off with an error), before the HTTP server closes.
   */
  async onModuleDestroy(): Promise<void> {
    await this.endpoint?.shutdown();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.endpoint?.close();
  }
}
