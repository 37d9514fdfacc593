import type { ProtocolEra, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { McpCall, type TransportCaller } from '../execution/mcp-call.js';
import type { McpLocalization } from '../localization/mcp-localization.js';
import type { McpExtensionSettings } from '../interfaces/mcp-extension-options.interface.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { cannotAskMessage } from '../messages/serving.messages.js';
import type { McpCatalog } from '../registry/mcp-catalog.js';
import { CallPhaseSpans } from '../telemetry/call-phase.spans.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { CatalogMcpServer } from './catalog-mcp.server.js';
import { DirectServing } from './direct-serving.js';
import { DeprecatedAliases } from './deprecated-aliases.js';
import { completionHandlers } from './handlers/completion.handlers.js';
import { extensionMethodHandlers } from './handlers/extension-method.handlers.js';
import type {
  CatalogServing,
  HandledServer,
  Handlers,
} from './handlers/catalog-serving.interface.js';
import { promptHandlers } from './handlers/prompt.handlers.js';
import { resourceHandlers } from './handlers/resource.handlers.js';
import { subscriptionHandlers } from './handlers/subscription.handlers.js';
import type { TaskHandlers } from './handlers/task.handlers.js';
import { toolHandlers } from './handlers/tool.handlers.js';
import { editionOf, localizedServerArgs } from './localized-serving.js';
import { supportedRevisions } from './protocol-revisions.js';
import type { McpNotifier } from './mcp-notifier.js';
import type { TransportResolver } from './protocol-runtime.interface.js';
import type { RequestScopes } from './request-scopes.js';
import { traceServer, type ServingUnit } from './server-tracing.js';
import { WireEncoder } from './wire.encoder.js';

const DEFAULT_PAGE_SIZE = 100;

/** The MCP methods every SDK server answers from the catalog (tasks join when a tool is one). */
const HANDLERS: readonly Handlers[] = [
  toolHandlers,
  promptHandlers,
  resourceHandlers,
  completionHandlers,
  subscriptionHandlers,
  extensionMethodHandlers,
];

type ServerArgs = ConstructorParameters<typeof CatalogMcpServer>;

/** What the factory is made of: one server's catalog and what serves it. */
export interface SdkServerParts {
  readonly options: McpModuleOptions;
  readonly catalog: McpCatalog;
  readonly notifier: McpNotifier;
  readonly scopes: RequestScopes;
  readonly tasks: TaskHandlers;
  /** The `i18n` option, read and checked; `undefined` without it (nothing is localized). */
  readonly localization?: McpLocalization;
}

/**
 * Builds the SDK server that answers one serving unit (an HTTP request, a stdio
 * connection, a 2025 session): an `McpServer` whose low-level `Server` carries the
 * handlers of the table above. The SDK owns framing, era negotiation, wire shapes, the
 * logging level, multi round-trip flows and `subscriptions/listen`; the handlers only plug
 * the catalog in. They close over the catalog, so a new server costs the same with 10 tools
 * or 1,000.
 */
export class SdkServerFactory {
  private readonly logger = new Logger(SdkServerFactory.name);
  /** What every server of an era gets: the same for each serving unit. */
  private readonly serverArgs: Readonly<Record<ProtocolEra, ServerArgs>>;
  /** The same per era and locale with `i18n` (the instructions differ). */
  private readonly serverArgsIn?: Readonly<Record<ProtocolEra, ReadonlyMap<string, ServerArgs>>>;
  private readonly serving: CatalogServing;
  /** Loaded here, at bootstrap: `undefined` with `telemetry: false` or no OpenTelemetry API. */
  private readonly telemetry?: McpTelemetry;
  /** Whether a tool of the catalog runs as a task: then the servers speak `tasks/*`. */
  private hasTaskTools = false;
  private warnedCannotAsk = false;
  /** The fast path's serving of each era, with and without task tools (made on first use). */
  private readonly directs = new Map<string, Promise<DirectServing>>();

  constructor(private readonly parts: SdkServerParts) {
    const { options, catalog, localization, tasks, notifier } = parts;
    const findTaskTools = () => {
      this.hasTaskTools = catalog.tools.entries().some((tool) => tool.task !== undefined);
    };
    findTaskTools();
    catalog.tools.onChange(findTaskTools);
    const argsOf = (era: ProtocolEra): ServerArgs => [
      { name: options.name, version: options.version },
      {
        ...(options.instructions && { instructions: options.instructions }),
        supportedProtocolVersions: supportedRevisions(era),
      },
      (name) => catalog.tools.get(name)?.definition.inputSchema,
    ];
    this.serverArgs = { legacy: argsOf('legacy'), modern: argsOf('modern') };
    this.serverArgsIn = localization && {
      legacy: localizedServerArgs(this.serverArgs.legacy, localization),
      modern: localizedServerArgs(this.serverArgs.modern, localization),
    };
    const telemetry = McpTelemetry.create(options.telemetry);
    this.telemetry = telemetry;
    tasks.traceWith(telemetry);
    this.serving = {
      catalog,
      notifier,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      listTemplatesAsResources: options.listTemplatesAsResources === true,
      ...(localization && { localization }),
      aliases: new DeprecatedAliases(),
      call: (kind, name, args, scope) => {
        const phases = telemetry && CallPhaseSpans.of(telemetry);
        return new McpCall({ kind, name, arguments: args, scope, ...(phases && { phases }) });
      },
      cannotAsk: (what) => this.warnCannotAsk(what),
    };
  }

  /** Whether requests are traced now: an answer served from a cache would have no span. */
  get tracing(): boolean {
    return this.telemetry?.recording === true;
  }

  /**
   * What a server of `era` states in `initialize` / `server/discover`, as of now (a task
   * tool added at run time adds tasks); `live`: for a connection (stdio, a 2025 session).
   */
  capabilities(era: ProtocolEra, live = false): ServerCapabilities {
    const tasks = this.hasTaskTools ? this.parts.tasks : undefined;
    return capabilitiesOf(
      era === 'modern' || live,
      tasks?.capabilities(era),
      this.parts.catalog.extensions,
    );
  }

  /**
   * What the fast path serves a request of `era` with, without an SDK server of its own
   * (`direct-serving.ts`); made once per era, and again when task tools come or go (a
   * 2025-11-25 list then says which tools run as tasks).
   */
  direct(era: ProtocolEra): Promise<DirectServing> {
    const tasks = this.hasTaskTools ? this.parts.tasks : undefined;
    const key = tasks ? `${era} with tasks` : era;
    let found = this.directs.get(key);
    if (!found) {
      const [info, options] = this.serverArgs[era];
      found = WireEncoder.of(era, info, options).then(
        (encoder) =>
          new DirectServing(
            this.serving,
            era,
            this.parts.scopes,
            encoder,
            tasks,
            this.telemetry && { telemetry: this.telemetry, knows: this.knows },
          ),
      );
      this.directs.set(key, found);
    }
    return found;
  }

  /** The SDK server of one serving unit, its handlers registered. */
  serverFor(
    era: ProtocolEra,
    transport: TransportCaller | TransportResolver,
    unit: ServingUnit = {},
  ): CatalogMcpServer {
    const { scopes } = this.parts;
    // A connection (a 2025 session) carries many HTTP requests: each handler sees its own.
    const transportOf = typeof transport === 'function' ? transport : () => transport;
    const identityOf = (ctx: ServerContext) => {
      const caller = transportOf(ctx);
      return caller.identity ?? scopes.identityOf(caller.request);
    };
    const mcpServer = new CatalogMcpServer(...this.argsFor(era, transport, identityOf));
    if (this.telemetry) traceServer(this.telemetry, mcpServer, era, transport, unit, this.knows);
    // The handlers go on the low-level server: registering every tool on the McpServer per
    // request would cost O(tools) per request.
    const { server } = mcpServer;
    const live = unit.live === true;
    // Changes and questions reach 2026-07-28 clients always (listen streams, input
    // requests), 2025-era clients only on a connection (stdio, a session).
    const canAsk = era === 'modern' || live;
    const tasks = this.hasTaskTools ? this.parts.tasks : undefined;
    server.registerCapabilities(this.capabilities(era, live));
    const legacyClientCapabilities = () => server.getClientCapabilities();
    const target: HandledServer = {
      server,
      era,
      live,
      ...(live && { connection: server }),
      canAsk,
      ...(tasks && { tasks }),
      scopeOf: (ctx: ServerContext) =>
        scopes.of(ctx, era, transportOf(ctx), legacyClientCapabilities),
    };
    for (const register of HANDLERS) register(this.serving, target);
    tasks?.register(server, era, identityOf, this.serving.pageSize, live);
    return mcpServer;
  }

  /**
   * What the SDK server of a unit is made with. A server that serves one request or
   * connection answers `initialize` and `server/discover` in its locale; a 2025 session's
   * varies per message, and so gets the default. The request state it verifies is bound
   * to the caller of the request that echoes it.
   */
  private argsFor(
    era: ProtocolEra,
    transport: TransportCaller | TransportResolver,
    identityOf: (ctx: ServerContext) => string,
  ): ServerArgs {
    const { localization, scopes } = this.parts;
    const locale =
      localization && typeof transport !== 'function'
        ? editionOf(localization, transport).locale
        : undefined;
    const [info, options, inputSchemaOf] =
      (locale !== undefined && this.serverArgsIn?.[era].get(locale)) || this.serverArgs[era];
    const verify = (state: string, ctx: ServerContext) =>
      scopes.verify(state, ctx, identityOf(ctx));
    return [info, { ...options, requestState: { verify } }, inputSchemaOf];
  }

  /** Whether a `tools/call` or `prompts/get` names an entry of the catalog (made once). */
  private readonly knows = (method: string, name: unknown): boolean => {
    const { tools, prompts } = this.parts.catalog;
    return (
      typeof name === 'string' &&
      ((method === 'tools/call' && tools.get(name) !== undefined) ||
        (method === 'prompts/get' && prompts.get(name) !== undefined))
    );
  };

  /**
   * Tells the developer, once, why a 2025-era client got an error instead of a question:
   * the SDK answers `inputRequired(...)` on a per-request 2025 exchange with "cannot request
   * input", which says what happened but not what to change.
   */
  private warnCannotAsk(what: string): void {
    if (this.warnedCannotAsk) return;
    this.warnedCannotAsk = true;
    this.logger.warn(cannotAskMessage(what));
  }
}

/**
 * What an SDK server advertises: notifications only where it can send them, tasks, and
 * the extensions (the app's, and the tasks extension on 2026-07-28).
 */
function capabilitiesOf(
  canAsk: boolean,
  tasks: ServerCapabilities | undefined,
  appExtensions: ReadonlyMap<string, McpExtensionSettings>,
): ServerCapabilities {
  const extensions = { ...Object.fromEntries(appExtensions), ...tasks?.extensions };
  return {
    tools: { listChanged: canAsk },
    prompts: { listChanged: canAsk },
    resources: { subscribe: canAsk, listChanged: canAsk },
    completions: {},
    logging: {},
    ...tasks,
    // Settings are the app's plain objects (checked at bootstrap), JSON as the SDK types it.
    ...(Object.keys(extensions).length > 0 && {
      extensions: extensions as ServerCapabilities['extensions'],
    }),
  };
}
