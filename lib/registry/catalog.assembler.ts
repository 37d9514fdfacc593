import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DiscoveredResource } from '../discovery/discovered-resource.interface.js';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { emptyServerReport } from '../discovery/empty-server.report.js';
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
import { namedTool } from '../discovery/tool-name.resolver.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { viewUriTakenMessage } from '../messages/apps.messages.js';
import { ambiguousTemplateMessage, manifestUriTakenMessage } from '../messages/catalog.messages.js';
import { notInitialisedMessage } from '../messages/serving.messages.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { appViewResource, showingTools } from './app-view.resource.js';
import { attachesCompleter } from './completer-target.check.js';
import { manifestResource, manifestUri } from './manifest.resource.js';
import { McpCatalog } from './mcp-catalog.js';
import { PrimitiveBinder } from './primitive.binder.js';
import {
  serverAppViews,
  usedAppViews,
  withAppMeta,
  withAppsExtension,
  type ServerAppView,
} from './server-app-views.js';
import { serverExtensions } from './server-extensions.js';
import type {
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from './registered-primitives.js';
import { assertUniqueAliases } from './tool-names.check.js';

/** What one server publishes, as the bootstrap assembled it. */
export interface AssembledCatalog {
  readonly catalog: McpCatalog;
  /** The scan of the whole app (every group), which localization checks its files against. */
  readonly explored: ExploredPrimitives;
}

/**
 * The bootstrap of one server's catalog: the app's scan (shared by every server) filtered to
 * this server's group, named by its `naming` option, checked for clashes, bound to the Nest
 * pipeline, with completers and the manifest attached. It also binds what the app adds at
 * run time (`McpServerHost#addTool()`), so decorated and added entries are made alike.
 */
@Injectable()
export class CatalogAssembler {
  private readonly logger = new Logger(CatalogAssembler.name);
  private assembled?: McpCatalog;
  private hiddenMethods: readonly McpHiddenMethod[] = [];
  /** The MCP Apps views of this server, by name: those its tools may name. */
  private views: ReadonlyMap<string, ServerAppView> = new Map();

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
    private readonly explorer: McpExplorer,
    private readonly binder: PrimitiveBinder,
  ) {}

  /** The catalog, once assembled (from `onModuleInit`). */
  get catalog(): McpCatalog {
    if (!this.assembled) throw new Error(notInitialisedMessage());
    return this.assembled;
  }

  /** Methods kept off MCP with `@McpHidden()` or `{ hidden }`, with the reasons. */
  get hidden(): readonly McpHiddenMethod[] {
    return this.hiddenMethods;
  }

  /** Assembles the catalog from the app's scan; fails the bootstrap on a clash. */
  assemble(): AssembledCatalog {
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
    const resources = mine(explored.resources);
    const methods = mine(explored.methods);
    assertUnique('tool name', tools, (tool) => tool.definition.name);
    assertUniqueAliases(tools);
    assertUnique('prompt name', prompts, (prompt) => prompt.definition.name);
    assertUnique('method', methods, (method) => method.method);
    assertUnique('resource URI', resources, (resource) =>
      resource.kind === 'static' ? resource.definition.uri : resource.definition.uriTemplate,
    );
    this.hiddenMethods = mine(explored.hidden).map(({ where, reason }) => ({ where, reason }));
    for (const resource of resources) this.warnIfAmbiguous(resource);
    const declared = serverAppViews(this.options.apps?.views, mine(explored.views));
    const views = usedAppViews(this.options.name, declared, tools, explored.tools);
    // The tools, bound below and added at run time, may name only the views published here.
    this.views = new Map(views.map((view) => [view.name, view]));
    const bound = resources.map((resource) => this.binder.resource(resource));
    const catalog = new McpCatalog(
      {
        tools: tools.map((tool) => this.bindTool(tool)),
        prompts: prompts.map((prompt) => this.binder.prompt(prompt)),
        resources: bound.filter((entry): entry is RegisteredResource => !('template' in entry)),
        templates: bound.filter((entry): entry is RegisteredTemplate => 'template' in entry),
        methods: methods.map((method) => this.binder.method(method)),
        extensions: withAppsExtension(
          serverExtensions(this.options.extensions, mine(explored.extensions), methods),
          views.length > 0,
        ),
      },
      { maxUriLength: this.options.maxUriLength },
    );
    this.publishViews(catalog, views);
    for (const completer of explored.completers) {
      // A completer follows its target: it serves every server whose entry of that name has
      // its argument, and is an error (attachCompleter) only when no entry of the app has.
      if (!attachesCompleter(catalog, explored, completer)) continue;
      catalog.attachCompleter(completer, this.binder.completer(completer));
    }
    if (this.options.manifest) this.publishManifest(catalog, this.options.manifest);
    this.assembled = catalog;
    this.report(catalog, explored, scope);
    return { catalog, explored };
  }

  /** A method of a provider as a tool, as `@McpTool()` would publish it on this server. */
  tool(provider: object, methodName: string, options: McpToolOptions): RegisteredTool {
    const described = this.explorer.describe('tool', provider, methodName, options);
    return this.bindTool(namedTool(described, this.options.naming));
  }

  /** A method as a prompt, as `@McpPrompt()` would publish it. */
  prompt(provider: object, methodName: string, options: McpPromptOptions): RegisteredPrompt {
    return this.binder.prompt(this.explorer.describe('prompt', provider, methodName, options));
  }

  /** A method as a resource or template, as `@McpResource()` would publish it. */
  resource(
    provider: object,
    methodName: string,
    options: McpResourceOptions,
  ): RegisteredResource | RegisteredTemplate {
    return this.binder.resource(this.explorer.describe('resource', provider, methodName, options));
  }

  /**
   * A tool bound to the pipeline as this server runs it (its schema form, its task queue,
   * the URI of its view).
   */
  private bindTool(tool: DiscoveredTool): RegisteredTool {
    const published = withAppMeta(tool, this.options.name, this.views);
    return this.binder.tool(
      published,
      this.options.schema,
      this.options.tasks?.queue !== undefined,
    );
  }

  /** Adds the resources of the views (MCP Apps), unless a URI is taken. */
  private publishViews(catalog: McpCatalog, views: readonly ServerAppView[]): void {
    for (const view of views) {
      const resource = appViewResource(view, this.options.name, catalog, this.binder);
      const taken = catalog.resources.get(resource.key);
      if (taken) {
        throw new McpConfigurationError(
          viewUriTakenMessage(
            view.name,
            showingTools(catalog, view.name),
            resource.key,
            taken.definition.name,
          ),
        );
      }
      catalog.resources.add(resource);
    }
  }

  /** Adds the manifest resource (the `manifest` option), unless its URI is taken. */
  private publishManifest(catalog: McpCatalog, manifest: true | string): void {
    const { name } = this.options;
    const uri = manifestUri(name, manifest);
    if (catalog.resources.get(uri)) {
      throw new McpConfigurationError(manifestUriTakenMessage(name, uri));
    }
    catalog.resources.add(
      manifestResource(name, uri, catalog, (tool) => catalog.tools.get(tool)?.scopes),
    );
  }

  /**
   * Warns of a template whose URIs can be read more than one way (`files://{name}.{ext}`),
   * once per template of the app, however many servers publish it.
   */
  private warnIfAmbiguous(resource: DiscoveredResource): void {
    if (resource.kind !== 'template' || warnedTemplates.has(resource)) return;
    warnedTemplates.add(resource);
    const { template, definition, where } = resource;
    const { ambiguities } = template;
    if (ambiguities.length === 0) return;
    this.logger.warn(
      ambiguousTemplateMessage(
        { name: definition.name, where, uriTemplate: definition.uriTemplate },
        ambiguities,
        template.separated,
      ),
    );
  }

  /** What the server publishes, or, when nothing, where the app's entries went instead. */
  private report(catalog: McpCatalog, explored: ExploredPrimitives, scope: ServerScope): void {
    const { name, group } = this.options;
    const resourceCount = catalog.resources.size + catalog.templates.size;
    const methods = catalog.methods.size > 0 ? `, ${catalog.methods.size} extension method(s)` : '';
    if (catalog.tools.size + catalog.prompts.size + resourceCount + catalog.methods.size === 0) {
      this.logger.warn(emptyServerReport(name, explored, scope));
      return;
    }
    const scoped = group === undefined ? '' : ` (${describeScope(scope)})`;
    this.logger.log(
      `MCP server "${name}"${scoped} publishes ${catalog.tools.size} tool(s), ` +
        `${catalog.prompts.size} prompt(s), ${resourceCount} resource(s)${methods}`,
    );
  }
}

/** The templates of the app (the scan every server shares) already checked for ambiguity. */
const warnedTemplates = new WeakSet<DiscoveredResource>();
