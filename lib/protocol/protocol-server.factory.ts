import {
  createRequestStateCodec,
  type McpServer,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { defaultCallerScopes, toScopeList } from '../authorization/caller-scopes.js';
import { McpCall, type RequestScope, type TransportContext } from '../execution/mcp-call.js';
import { resourceNotFound } from '../execution/protocol-error.mapper.js';
import type { McpPrimitiveKind } from '../interfaces/mcp-call-context.interface.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { describeJsonInputProblem, findJsonInputProblem } from '../utils/json-input.util.js';
import { CallPhaseSpans } from '../telemetry/call-phase.spans.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { complete } from './argument.completer.js';
import { pushChanges } from './change-notifications.js';
import { traceServer, type ServingUnit } from './server-tracing.js';
import { CatalogMcpServer } from './catalog-mcp.server.js';
import type { TaskMethods } from './task-methods.js';
import type { McpLocalization } from '../i18n/mcp-localization.js';
import {
  editionOf,
  localeScope,
  localizedServerArgs,
  viewIn,
  withPromptDescription,
  KIND_OF,
  type EditionList,
} from './localized-serving.js';
import { unknownEntry } from './unknown-entry.error.js';
import type { McpCatalog } from '../registry/mcp-catalog.js';
import type { McpNotifier } from '../registry/mcp-notifier.js';
import type { McpTaskJob } from '../interfaces/mcp-scale-out.interface.js';
import { taskJobRequest, taskJobServerContext } from '../tasks/task-job.js';
import type { PrimitiveRegistry, RegisteredPrimitive } from '../registry/primitive.registry.js';

const DEFAULT_PAGE_SIZE = 100;

type ServerArgs = ConstructorParameters<typeof CatalogMcpServer>;

/**
 * Arguments that arrive over any transport are checked for depth and prototype keys before
 * anything copies them (the HTTP endpoint checks whole bodies earlier; stdio does not).
 */
function checkedArguments<T>(args: T): T {
  const problem = findJsonInputProblem(args);
  if (!problem) return args;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    describeJsonInputProblem(problem, 'The arguments'),
  );
}

/** The guards' context for deciding whether a caller sees one entry of a list. */
const listing =
  (scope: RequestScope, kind: McpPrimitiveKind) => (entry: RegisteredPrimitive<unknown>) =>
    new McpCall(kind, entry.key, {}, scope, 'list');

/**
 * Builds the SDK server that answers one serving unit (an HTTP request, a stdio
 * connection, a 2025 session): an `McpServer` shell whose low-level `Server` carries our
 * handlers. The SDK owns framing, era negotiation, wire shapes, the logging level, multi
 * round-trip flows and `subscriptions/listen`; this class only plugs the catalog in. The
 * handlers close over the catalog, so a new instance costs the same with 10 tools or 1,000.
 */
export class ProtocolServerFactory {
  private readonly readScopes: RequestScope['readScopes'];
  private readonly mintRequestState: RequestScope['mintRequestState'];
  private readonly verifyRequestState: RequestScope['verifyRequestState'];
  private readonly pageSize: number;
  private readonly stateCodec;
  /** What every server this factory builds is given: the same for each serving unit. */
  private readonly serverArgs: ServerArgs;
  /** The same per locale with `i18n` (the instructions differ). */
  private readonly serverArgsIn?: ReadonlyMap<
    string,
    ConstructorParameters<typeof CatalogMcpServer>
  >;
  private readonly logger = new Logger('McpModule');
  private warnedCannotAsk = false;
  /** Loaded here, at bootstrap: `undefined` with `telemetry: false` or no OpenTelemetry API. */
  private readonly telemetry?: McpTelemetry;

  /** Whether a tool of the catalog runs as a task: then the servers speak `tasks/*`. */
  private hasTaskTools = false;

  constructor(
    private readonly options: McpModuleOptions,
    private readonly catalog: McpCatalog,
    private readonly notifier: McpNotifier,
    private readonly tasks?: TaskMethods,
    /** The `i18n` option, read and checked; `undefined` without it (nothing is localized). */
    readonly localization?: McpLocalization,
  ) {
    const findTaskTools = () => {
      this.hasTaskTools = catalog.tools.entries().some((tool) => tool.task !== undefined);
    };
    findTaskTools();
    catalog.tools.onChange(findTaskTools);
    const reader = options.callerScopes ?? defaultCallerScopes;
    this.readScopes = (request) => toScopeList(reader(request));
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.stateCodec = createRequestStateCodec({
      // One random key per process unless the app shares one across its instances.
      key: options.requestState?.secret ?? randomBytes(32),
      ...(options.requestState?.ttlSeconds && { ttlSeconds: options.requestState.ttlSeconds }),
      // A state minted for one method, or for one caller's credentials, cannot be replayed
      // on another (the codec keeps only an HMAC of this value, never the credentials).
      bind: (ctx) =>
        `${ctx.mcpReq.method}\0${ctx.http?.req?.headers.get('authorization') ?? ''}\0${ctx.http?.authInfo?.clientId ?? ''}`,
    });
    this.mintRequestState = (state, ctx) => this.stateCodec.mint(state, ctx);
    this.verifyRequestState = (state, ctx) => this.stateCodec.verify(state, ctx);
    this.serverArgs = [
      { name: options.name, version: options.version },
      {
        ...(options.instructions && { instructions: options.instructions }),
        requestState: { verify: (state, ctx) => this.stateCodec.verify(state, ctx) },
      },
      (name) => catalog.tools.get(name)?.definition.inputSchema,
    ];
    this.serverArgsIn = localization && localizedServerArgs(this.serverArgs, localization);
    this.telemetry = McpTelemetry.create(options.telemetry);
    tasks?.traceWith(this.telemetry);
  }

  /** The request scope of a queued task's call, on the worker that took it (`tasks.queue`). */
  jobScope(job: McpTaskJob, signal: AbortSignal): RequestScope {
    const transport: TransportContext = {
      request: taskJobRequest(job),
      ...(job.locale !== undefined && { locale: job.locale }),
    };
    return this.scopeOf(taskJobServerContext(job, signal), job.era, transport, () =>
      job.era === 'legacy' ? job.clientCapabilities : undefined,
    );
  }

  /** What a call needs of its request: the same for a request served and a job a worker took. */
  private scopeOf(
    serverContext: ServerContext,
    era: ProtocolEra,
    transport: TransportContext,
    legacyClientCapabilities: RequestScope['legacyClientCapabilities'],
  ): RequestScope {
    const { localization } = this;
    return {
      serverContext,
      era,
      transport,
      readScopes: this.readScopes,
      mintRequestState: this.mintRequestState,
      verifyRequestState: this.verifyRequestState,
      legacyClientCapabilities,
      ...(localization && localeScope(editionOf(localization, transport))),
    };
  }

  /** The catalog these servers serve (the lean HTTP path reads its facts). */
  get servedCatalog(): McpCatalog {
    return this.catalog;
  }

  /** Whether requests are traced now: an answer served from a cache would have no span. */
  get tracing(): boolean {
    return this.telemetry?.recording === true;
  }

  create(
    era: ProtocolEra,
    transport: TransportContext | ((serverContext: ServerContext) => TransportContext),
    unit: ServingUnit = {},
  ): McpServer {
    // A connection (a 2025 session) carries many HTTP requests: each handler sees its own.
    const transportOf = typeof transport === 'function' ? transport : () => transport;
    // A server that serves one request or connection answers `initialize` and
    // `server/discover` in its locale; a 2025 session's varies per message and so gets the default.
    const { localization } = this;
    const unitLocale =
      localization && typeof transport !== 'function' && editionOf(localization, transport).locale;
    const product = new CatalogMcpServer(
      ...((unitLocale && this.serverArgsIn?.get(unitLocale)) || this.serverArgs),
    );
    // The handlers below go on the low-level server: registering every tool on the
    // McpServer per request would cost O(tools) per request.
    const { server } = product;
    if (this.telemetry) traceServer(this.telemetry, product, era, transport, unit, this.knows);
    // Changes reach 2026-07-28 clients on listen streams and 2025-era clients on a
    // connection (stdio, a session); a 2025 client served per request is promised none.
    const notifies = era === 'modern' || unit.live === true;
    // The same goes for questions: a 2025 client served per request cannot be asked any.
    const canAsk = notifies;
    const tasks = this.hasTaskTools ? this.tasks : undefined;
    server.registerCapabilities({
      tools: { listChanged: notifies },
      prompts: { listChanged: notifies },
      resources: { subscribe: notifies, listChanged: notifies },
      completions: {},
      logging: {},
      ...tasks?.capabilities(era),
    });
    const legacyClientCapabilities = () => server.getClientCapabilities();
    const scopeOf = (serverContext: ServerContext): RequestScope =>
      this.scopeOf(serverContext, era, transportOf(serverContext), legacyClientCapabilities);
    const { tools, prompts, resources, templates } = this.catalog;

    // One page of a list, as this caller may see it; `nextCursor` is left out on the last.
    // With `i18n`, the definitions of the caller's locale (each made once per locale).
    const pageOf = <D, E extends RegisteredPrimitive<D>>(
      registry: PrimitiveRegistry<D, E>,
      list: EditionList,
      ctx: ServerContext,
      cursor: string | undefined,
      pageSize = this.pageSize,
    ) => {
      const scope = scopeOf(ctx);
      const view = localization && viewIn<D>(localization.edition(scope.locale), list);
      return registry.page(listing(scope, KIND_OF[list]), cursor, pageSize, view);
    };

    server.setRequestHandler('tools/list', async (request, ctx) => {
      const { items, nextCursor } = await pageOf(tools, 'tools', ctx, request.params?.cursor);
      // 2025-11-25 lists which tools run as tasks (2026-07-28 tools carry no such field).
      const listed = tasks && era === 'legacy' ? tasks.withTaskSupport(items, tools) : items;
      return { tools: listed, nextCursor };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args = {} } = request.params;
      const tool = tools.get(name);
      if (!tool) throw unknownEntry('tool', name, 'tools/list', scopeOf(ctx).texts);
      const call = this.timed(new McpCall('tool', name, checkedArguments(args), scopeOf(ctx)));
      const started =
        // 2025-11-25 refuses `params.task` on a tool that never runs as one (-32601).
        (tool.task || era === 'legacy') &&
        tasks &&
        (await tasks.callTool(call, tool, request.params, era, server));
      if (started && started.kind === 'task') return started.result as never;
      const result = started ? started.result : await tool.invoke(call);
      if (!isInputRequiredResult(result)) {
        return server.projectCallToolResult(result, tool.definition.outputSchema);
      }
      if (!canAsk) this.warnCannotAsk(`tool "${name}"`);
      return result;
    });

    server.setRequestHandler('prompts/list', async (request, ctx) => {
      const { items, nextCursor } = await pageOf(prompts, 'prompts', ctx, request.params?.cursor);
      return { prompts: items, nextCursor };
    });
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const { name, arguments: args = {} } = request.params;
      const prompt = prompts.get(name);
      const scope = scopeOf(ctx);
      if (!prompt) throw unknownEntry('prompt', name, 'prompts/list', scope.texts);
      const result = await prompt.get(
        this.timed(new McpCall('prompt', name, checkedArguments(args), scope)),
      );
      if (isInputRequiredResult(result)) {
        if (!canAsk) this.warnCannotAsk(`prompt "${name}"`);
        return result;
      }
      return localization
        ? withPromptDescription(result, prompt.definition, localization, scope)
        : result;
    });

    server.setRequestHandler('resources/list', async (request, ctx) => {
      const cursor = request.params?.cursor;
      const { items, nextCursor } = await pageOf(resources, 'resources', ctx, cursor);
      if (!this.options.listTemplatesAsResources || nextCursor) {
        return { resources: items, nextCursor };
      }
      // Templates follow the last page of resources, for clients that never list templates.
      const all = await pageOf(templates, 'templates', ctx, undefined, Number.MAX_SAFE_INTEGER);
      const asResources = all.items.map(({ uriTemplate, ...rest }) => ({
        ...rest,
        uri: uriTemplate,
      }));
      return { resources: [...items, ...asResources] };
    });
    server.setRequestHandler('resources/templates/list', async (request, ctx) => {
      const cursor = request.params?.cursor;
      const { items, nextCursor } = await pageOf(templates, 'templates', ctx, cursor);
      return { resourceTemplates: items, nextCursor };
    });
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const { uri } = request.params;
      const found = this.catalog.findResource(uri);
      if (!found) throw resourceNotFound(uri, era, scopeOf(ctx).texts);
      const call = this.timed(new McpCall('resource', uri, found.variables, scopeOf(ctx)));
      const result = await found.resource.read(call, uri);
      if (!canAsk && isInputRequiredResult(result)) this.warnCannotAsk(`resource "${uri}"`);
      return result;
    });

    server.setRequestHandler('completion/complete', (request, ctx) =>
      complete(this.catalog, request, scopeOf(ctx)),
    );

    const subscribed = new Set<string>();
    server.setRequestHandler('resources/subscribe', (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    tasks?.register(server, era, (ctx) => transportOf(ctx).request, this.pageSize, unit.live);
    if (unit.live) pushChanges(this.notifier, server, subscribed);
    return product;
  }

  /** Whether a `tools/call` or `prompts/get` names an entry of the catalog (made once). */
  private readonly knows = (method: string, name: unknown): boolean =>
    typeof name === 'string' &&
    ((method === 'tools/call' && this.catalog.tools.get(name) !== undefined) ||
      (method === 'prompts/get' && this.catalog.prompts.get(name) !== undefined));

  /** A call whose phases (arguments, guards, method) are child spans, when asked for. */
  private timed(call: McpCall): McpCall {
    if (this.telemetry) call.phases = CallPhaseSpans.of(this.telemetry);
    return call;
  }

  /**
   * Tells the developer, once, why a 2025-era client got an error instead of a question:
   * the SDK answers `inputRequired(...)` on a per-request 2025 exchange with "cannot request
   * input", which says what happened but not what to change.
   */
  private warnCannotAsk(what: string): void {
    if (this.warnedCannotAsk) return;
    this.warnedCannotAsk = true;
    this.logger.warn(
      `The ${what} asked a 2025-era client for input, which it cannot be asked without a ` +
        `session; the client got an error. Enable http: { legacySessions: true } to ask ` +
        `2025-era clients (2026-07-28 clients are asked either way).`,
    );
  }
}
