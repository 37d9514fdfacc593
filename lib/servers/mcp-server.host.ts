import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import {
  assertUnique,
  McpExplorer,
  type ExploredPrimitives,
  type McpHiddenMethod,
} from '../discovery/mcp.explorer.js';
import {
  describeScope,
  isPublishedOn,
  type ServerMembership,
  type ServerScope,
} from '../discovery/server-membership.js';
import { emptyServerReport } from '../discovery/empty-server.report.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { MCP_TASK_STORE } from '../mcp.constants.js';
import type { McpTaskStore } from '../interfaces/mcp-task-store.interface.js';
import { TaskMethods } from '../protocol/task-methods.js';
import { McpTaskRunner } from '../tasks/mcp-task.runner.js';
import { McpCatalog } from '../registry/mcp-catalog.js';
import { McpNotifier } from '../registry/mcp-notifier.js';
import { PrimitiveBinder } from '../registry/primitive.binder.js';
import { ProtocolServerFactory } from '../protocol/protocol-server.factory.js';
import type {
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from '../registry/registered-primitives.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { namedTool } from '../discovery/tool-name.resolver.js';
import { manifestResource, manifestUri } from './manifest.resource.js';
import { assertUniqueAliases } from './tool-names.check.js';
import { serverLocalization } from './server-localization.js';

/**
 * One MCP server of the app: its options, what it publishes (tools, prompts, resources),
 * the run-time API to change that, and the factory of SDK servers that every transport
 * uses. Decorated methods are discovered in `onModuleInit`, when every provider exists
 * and before the app listens. Inject it to see or change what the server publishes; with
 * several servers in one app, inject `McpServers` and pick one with `get(name)`.
 * @publicApi
 */
@Injectable()
export class McpServerHost implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  /** @internal Where changes are published, for the transports. */
  readonly notifier = new McpNotifier();
  private serverFactory?: ProtocolServerFactory;
  private published?: McpCatalog;
  private hidden: readonly McpHiddenMethod[] = [];
  private taskRunner?: McpTaskRunner;

  constructor(
    /** The server's options, checked where they are provided (before anything injects them). */
    @Inject(MCP_MODULE_OPTIONS) readonly options: McpModuleOptions,
    private readonly explorer: McpExplorer,
    private readonly binder: PrimitiveBinder,
    @Inject(MCP_TASK_STORE) private readonly taskStore: McpTaskStore,
  ) {}

  async onModuleInit(): Promise<void> {
    this.publish();
    await this.shareOut();
  }

  /** Discovers what this server publishes, and builds its catalog and server factory. */
  private publish(): void {
    // One scan for every server of the app; this one keeps the entries of its group.
    const explored = this.explorer.explore();
    const scope: ServerScope = {
      group: this.options.group,
      groupVersion: this.options.groupVersion,
    };
    const mine = <T extends { membership?: ServerMembership }>(entries: readonly T[]) =>
      entries.filter((entry) => isPublishedOn(entry.membership, scope));
    // Names are each server's own (its `naming` option); the scan is shared.
    const tools = mine(explored.tools).map((tool) => namedTool(tool, this.options.naming));
    const prompts = mine(explored.prompts);
    const exploredResources = mine(explored.resources);
    assertUnique('tool name', tools, (tool) => tool.definition.name);
    assertUniqueAliases(tools);
    assertUnique('prompt name', prompts, (prompt) => prompt.definition.name);
    assertUnique('resource URI', exploredResources, (resource) =>
      resource.kind === 'static' ? resource.definition.uri : resource.definition.uriTemplate,
    );
    this.hidden = mine(explored.hidden).map(({ where, reason }) => ({ where, reason }));
    const resources = exploredResources.map((resource) => this.binder.resource(resource));
    const catalog = new McpCatalog(
      {
        tools: tools.map((tool) => this.bindTool(tool)),
        prompts: prompts.map((prompt) => this.binder.prompt(prompt)),
        resources: resources.filter((entry): entry is RegisteredResource => !('template' in entry)),
        templates: resources.filter((entry): entry is RegisteredTemplate => 'template' in entry),
      },
      this.notifier,
    );
    for (const completer of explored.completers) {
      // A completer follows its target: it serves every server that publishes it, and is
      // an error (below) only when no entry of the app has that name.
      if (!catalog.completable(completer.target) && isExploredTarget(explored, completer)) continue;
      catalog.attachCompleter(completer, this.binder.completer(completer));
    }
    if (this.options.manifest) this.publishManifest(catalog, this.options.manifest);
    this.published = catalog;
    const { scaleOut, tasks } = this.options;
    this.taskRunner = new McpTaskRunner(
      this.taskStore,
      scaleOut && tasks?.queue ? scaleOut.taskQueue(this.options.name, tasks.queue) : undefined,
    );
    this.serverFactory = new ProtocolServerFactory(
      this.options,
      catalog,
      this.notifier,
      new TaskMethods(this.taskStore, this.taskRunner, this.options.tasks),
      serverLocalization(this.options, explored, catalog),
    );
    const resourceCount = catalog.resources.size + catalog.templates.size;
    const scoped = this.options.group === undefined ? '' : ` (${describeScope(scope)})`;
    if (catalog.tools.size + catalog.prompts.size + resourceCount === 0) {
      this.logger.warn(emptyServerReport(this.options.name, explored, scope));
    } else {
      this.logger.log(
        `MCP server "${this.options.name}"${scoped} publishes ${catalog.tools.size} tool(s), ` +
          `${catalog.prompts.size} prompt(s), ${resourceCount} resource(s)`,
      );
    }
  }

  /**
   * With `scaleOut` (docs/scale-out.md): connects, shares the changes with the other
   * instances, and takes the queue's tasks (`tasks.queue`).
   */
  private async shareOut(): Promise<void> {
    const { scaleOut } = this.options;
    if (!scaleOut) return;
    // Asked for first: connect() starts it, so it hears every change from then on.
    const bus = scaleOut.changeBus(this.options.name);
    await scaleOut.connect();
    this.notifier.bridge(bus);
    const factory = this.protocolServers;
    this.taskRunner?.serveQueue({
      tool: (name) => this.catalog.tools.get(name),
      scopeOf: (job, signal) => factory.jobScope(job, signal),
    });
    this.logger.log(
      `MCP server "${this.options.name}" shares its changes and tasks as instance ${scaleOut.instanceId}`,
    );
  }

  /**
   * At shutdown, the tasks this process runs are cancelled (their methods see `ctx.signal`
   * abort); the store the module made is closed, an app's own store is left to the app,
   * and the shared connections (`scaleOut`) are released.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.taskRunner?.close();
    if (!this.options.tasks?.store) await this.taskStore.close?.();
    this.notifier.unbridge();
    await this.options.scaleOut?.close();
  }

  /** Every published tool, as `tools/list` shows it to a caller whom no guard rejects. */
  tools(): Tool[] {
    return this.catalog.tools.definitions();
  }

  /** Every published prompt, as `prompts/list` shows it to a caller whom no guard rejects. */
  prompts(): Prompt[] {
    return this.catalog.prompts.definitions();
  }

  /** Every published resource with a fixed URI. */
  resources(): Resource[] {
    return this.catalog.resources.definitions();
  }

  /** Every published resource template. */
  resourceTemplates(): ResourceTemplateType[] {
    return this.catalog.templates.definitions();
  }

  /**
   * Methods kept off MCP with `@McpHidden()` or `{ hidden }` (tools, prompts and
   * resources alike), with the reasons.
   */
  hiddenMethods(): readonly McpHiddenMethod[] {
    return this.hidden;
  }

  /** @deprecated Use {@link McpServerHost.hiddenMethods}, which it returns; it lists every kind, not only tools. */
  hiddenTools(): readonly McpHiddenMethod[] {
    return this.hiddenMethods();
  }

  /**
   * Publishes a method of a provider as a tool at run time, exactly as `@McpTool()` would
   * (its DTO, guards, interceptors, pipes and filters apply), and tells connected clients
   * that the list changed.
   * @example host.addTool(this.reports, 'quarterlyReport', { description: 'Q3 figures' });
   */
  addTool(provider: object, methodName: string, options: McpToolOptions = {}): void {
    const described = this.explorer.describe('tool', provider, methodName, options);
    const tool = namedTool(described, this.options.naming);
    this.catalog.tools.add(this.bindTool(tool));
  }

  /** Withdraws a tool (decorated or added); `false` when there was none by that name. */
  removeTool(name: string): boolean {
    return this.catalog.tools.remove(name);
  }

  /** Publishes a method as a prompt at run time, as `@McpPrompt()` would. */
  addPrompt(provider: object, methodName: string, options: McpPromptOptions = {}): void {
    const prompt = this.explorer.describe('prompt', provider, methodName, options);
    this.catalog.prompts.add(this.binder.prompt(prompt));
  }

  /** Withdraws a prompt; `false` when there was none by that name. */
  removePrompt(name: string): boolean {
    return this.catalog.prompts.remove(name);
  }

  /** Publishes a method as a resource or template at run time, as `@McpResource()` would. */
  addResource(provider: object, methodName: string, options: McpResourceOptions): void {
    const resource = this.explorer.describe('resource', provider, methodName, options);
    const entry = this.binder.resource(resource);
    if ('template' in entry) this.catalog.templates.add(entry);
    else this.catalog.resources.add(entry);
  }

  /** Withdraws a resource by its URI, or a template by its URI template. */
  removeResource(uriOrTemplate: string): boolean {
    return (
      this.catalog.resources.remove(uriOrTemplate) || this.catalog.templates.remove(uriOrTemplate)
    );
  }

  /**
   * Tells clients that subscribed to a resource that its contents changed
   * (`notifications/resources/updated`, on 2025 sessions and stdio connections).
   */
  resourceUpdated(uri: string): void {
    this.notifier.publish({ kind: 'resource', uri });
  }

  /**
   * @internal What `@McpScopes()` requires of the entry a request names (`tools/call`,
   * `prompts/get`, `resources/read`), for the OAuth step-up challenge; with the entry's kind
   * and name (or URI) for the message.
   */
  scopeRequirementOf(request: {
    method: string;
    params?: Record<string, unknown>;
  }): { requirement: McpScopeRequirement; what: string } | undefined {
    const { method, params } = request;
    const name = params?.name;
    const uri = params?.uri;
    if (method === 'tools/call' && typeof name === 'string') {
      // An alias finds the tool, and needs what the tool needs.
      const requirement = this.catalog.tools.get(name)?.scopes;
      return requirement && { requirement, what: `tool '${name}'` };
    }
    if (method === 'prompts/get' && typeof name === 'string') {
      const requirement = this.catalog.prompts.get(name)?.scopes;
      return requirement && { requirement, what: `prompt '${name}'` };
    }
    if (method === 'resources/read' && typeof uri === 'string') {
      const found = this.catalog.findResource(uri);
      const requirement = found?.resource.scopes;
      return requirement && { requirement, what: `resource ${uri}` };
    }
    return undefined;
  }

  /**
   * @internal The name `tools/list` shows for a tool name or alias; `undefined` for a
   * name this server does not answer to.
   */
  listedToolName(nameOrAlias: string): string | undefined {
    return this.catalog.tools.get(nameOrAlias)?.key;
  }

  /** @internal Every scope `@McpScopes()` names on this server, sorted. */
  namedScopes(): string[] {
    const { tools, prompts, resources, templates } = this.catalog;
    const scopes = new Set<string>();
    for (const registry of [tools, prompts, resources, templates]) {
      for (const { scopes: requirement } of registry.entries()) {
        if (!requirement) continue;
        for (const scope of 'any' in requirement ? requirement.any : requirement.all) {
          scopes.add(scope);
        }
      }
    }
    return [...scopes].toSorted();
  }

  /** @internal The factory of SDK servers, for the transports. */
  get protocolServers(): ProtocolServerFactory {
    return this.ready(this.serverFactory);
  }

  /** A tool bound to the pipeline as this server runs it (its schema form, its task queue). */
  private bindTool(tool: DiscoveredTool): RegisteredTool {
    return this.binder.tool(tool, this.options.schema, this.options.tasks?.queue !== undefined);
  }

  /** Adds the manifest resource (the `manifest` option), unless its URI is taken. */
  private publishManifest(catalog: McpCatalog, manifest: true | string): void {
    const uri = manifestUri(this.options.name, manifest);
    if (catalog.resources.get(uri)) {
      throw new McpConfigurationError(
        `The manifest of the MCP server "${this.options.name}" would be published at ${uri}, ` +
          `which a resource of the app already uses. Give the manifest another URI with ` +
          `manifest: 'mcp://${this.options.name}/system/manifest', or move the resource.`,
      );
    }
    catalog.resources.add(
      manifestResource(this.options.name, uri, catalog, (tool) => catalog.tools.get(tool)?.scopes),
    );
  }

  private get catalog(): McpCatalog {
    return this.ready(this.published);
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

/** Whether some entry of the app, on whichever server, is the completer's target. */
function isExploredTarget(explored: ExploredPrimitives, { target }: DiscoveredCompleter): boolean {
  return 'prompt' in target
    ? explored.prompts.some((prompt) => prompt.definition.name === target.prompt)
    : explored.resources.some(
        (resource) =>
          resource.kind === 'template' && resource.definition.uriTemplate === target.resource,
      );
}
