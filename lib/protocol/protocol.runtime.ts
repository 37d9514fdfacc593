import type { ProtocolEra, ServerCapabilities } from '@modelcontextprotocol/server';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { McpLocalization } from '../localization/mcp-localization.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpChange } from '../interfaces/mcp-scale-out.interface.js';
import type { McpTaskStore } from '../interfaces/mcp-task-store.interface.js';
import { MCP_TASK_STORE } from '../mcp.constants.js';
import { notInitialisedMessage } from '../messages/serving.messages.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { CatalogAssembler } from '../registry/catalog.assembler.js';
import type { CatalogList, McpCatalog } from '../registry/mcp-catalog.js';
import { McpTaskRunner } from '../tasks/mcp-task.runner.js';
import type { CatalogMcpServer } from './catalog-mcp.server.js';
import type { DirectServing } from './direct-serving.js';
import { McpNotifier } from './mcp-notifier.js';
import type {
  McpProtocolRuntime,
  PublishedCatalog,
  ToolFacts,
  TransportCaller,
  TransportResolver,
} from './protocol-runtime.interface.js';
import { RequestScopes } from './request-scopes.js';
import { SdkServerFactory } from './sdk-server.factory.js';
import type { ServingUnit } from './server-tracing.js';
import { serverLocalization } from './server-localization.js';
import { TaskHandlers } from './handlers/task.handlers.js';

/** The parts of a runtime that exist once the app is initialised. */
interface Running {
  readonly catalog: McpCatalog;
  readonly servers: SdkServerFactory;
  readonly scopes: RequestScopes;
  readonly taskRunner: McpTaskRunner;
  readonly localization?: McpLocalization;
  readonly stopForwarding: () => void;
}

/**
 * The run time of one MCP server (one `McpModule` registration): it assembles the catalog
 * at `onModuleInit`, then owns what serves it: the SDK servers' factory, the change
 * notifier, the task runner, the localization, the shared state of several instances
 * (`scaleOut`) and their shutdown. Transports, the CLI and the testing kit reach a server
 * only through it ({@link McpProtocolRuntime}); the public `McpServerHost` is a facade over
 * it and the catalog.
 */
@Injectable()
export class ProtocolRuntime implements McpProtocolRuntime, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ProtocolRuntime.name);
  private readonly notifier = new McpNotifier();
  private running?: Running;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) readonly options: McpModuleOptions,
    private readonly assembler: CatalogAssembler,
    @Inject(MCP_TASK_STORE) private readonly taskStore: McpTaskStore,
  ) {}

  /** Assembles the catalog (before the app listens), then joins the other instances. */
  async onModuleInit(): Promise<void> {
    const { catalog, explored } = this.assembler.assemble();
    const { options } = this;
    const localization = serverLocalization(options, explored, catalog);
    const { scaleOut, tasks } = options;
    const taskRunner = new McpTaskRunner(
      this.taskStore,
      scaleOut && tasks?.queue ? scaleOut.taskQueue(options.name, tasks.queue) : undefined,
    );
    const scopes = new RequestScopes(options, localization);
    const servers = new SdkServerFactory({
      options,
      catalog,
      notifier: this.notifier,
      scopes,
      tasks: new TaskHandlers(this.taskStore, taskRunner, tasks),
      ...(localization && { localization }),
    });
    const stopForwarding = catalog.onChange((list) => this.notifier.publish({ kind: list }));
    this.running = { catalog, servers, scopes, taskRunner, localization, stopForwarding };
    await this.shareOut(this.running);
  }

  /**
   * With `scaleOut` (docs/scale-out.md): connects, shares the changes with the other
   * instances, and takes the queue's tasks (`tasks.queue`).
   */
  private async shareOut({ catalog, scopes, taskRunner }: Running): Promise<void> {
    const { scaleOut, name } = this.options;
    if (!scaleOut) return;
    // Asked for first: connect() starts it, so it hears every change from then on.
    const bus = scaleOut.changeBus(name);
    await scaleOut.connect();
    this.notifier.bridge(bus);
    taskRunner.serveQueue({
      tool: (tool) => catalog.tools.get(tool),
      scopeOf: (job, signal) => scopes.ofJob(job, signal),
    });
    this.logger.log(
      `MCP server "${name}" shares its changes and tasks as instance ${scaleOut.instanceId}`,
    );
  }

  /**
   * At shutdown, the tasks this process runs are cancelled (their methods see `ctx.signal`
   * abort); the store the module made is closed, an app's own store is left to the app,
   * and the shared connections (`scaleOut`) are released.
   */
  async onApplicationShutdown(): Promise<void> {
    this.running?.stopForwarding();
    await this.running?.taskRunner.close();
    if (!this.options.tasks?.store) await this.taskStore.close?.();
    this.notifier.unbridge();
    await this.options.scaleOut?.close();
  }

  get localization(): McpLocalization | undefined {
    return this.running?.localization;
  }

  get tracing(): boolean {
    return this.running?.servers.tracing === true;
  }

  serverFor(
    era: ProtocolEra,
    transport: TransportCaller | TransportResolver,
    unit?: ServingUnit,
  ): CatalogMcpServer {
    return this.ready().servers.serverFor(era, transport, unit);
  }

  direct(era: ProtocolEra): Promise<DirectServing> {
    return this.ready().servers.direct(era);
  }

  capabilities(era: ProtocolEra): ServerCapabilities {
    return this.ready().servers.capabilities(era);
  }

  identityOf(request: unknown): string {
    return this.ready().scopes.identityOf(request);
  }

  onChange(listener: (change: McpChange) => void): () => void {
    return this.notifier.subscribe(listener);
  }

  /** Tells clients subscribed to a resource that it changed (and the other instances). */
  resourceUpdated(uri: string): void {
    this.notifier.publish({ kind: 'resource', uri });
  }

  tool(name: string): ToolFacts | undefined {
    const tool = this.ready().catalog.tools.get(name);
    return (
      tool && {
        task: tool.task !== undefined,
        inputSchema: tool.definition.inputSchema,
        ...(tool.limits && { limits: tool.limits }),
      }
    );
  }

  listedAlike(list: CatalogList): boolean {
    const { tools, prompts, resources, templates } = this.ready().catalog;
    if (list === 'tools') return tools.listedAlike;
    if (list === 'prompts') return prompts.listedAlike;
    return resources.listedAlike && templates.listedAlike;
  }

  scopeRequirementOf(request: { method: string; params?: Record<string, unknown> }) {
    return this.ready().catalog.scopeRequirementOf(request);
  }

  namedScopes(): string[] {
    return this.ready().catalog.namedScopes();
  }

  published(): PublishedCatalog {
    const { tools, prompts, resources, templates } = this.ready().catalog;
    return {
      tools: tools.definitions(),
      prompts: prompts.definitions(),
      resources: resources.definitions(),
      resourceTemplates: templates.definitions(),
      hidden: this.assembler.hidden,
    };
  }

  private ready(): Running {
    if (!this.running) throw new Error(notInitialisedMessage());
    return this.running;
  }
}
