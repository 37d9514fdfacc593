import type {
  Prompt,
  ProtocolEra,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  ServerContext,
  Tool,
} from '@modelcontextprotocol/server';
import type { McpHiddenMethod } from '../discovery/mcp.explorer.js';
import type { TransportCaller } from '../execution/mcp-call.js';
import type { ToolLimits } from '../execution/tool-limits.js';
import type { McpLocalization } from '../localization/mcp-localization.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpChange } from '../interfaces/mcp-scale-out.interface.js';
import type { CatalogList, NamedScopeRequirement } from '../registry/mcp-catalog.js';
import type { CatalogMcpServer } from './catalog-mcp.server.js';
import type { DirectServing } from './direct-serving.js';
import type { ServingUnit } from './server-tracing.js';

export type { TransportCaller } from '../execution/mcp-call.js';
export type { ServingUnit } from './server-tracing.js';
export type { CatalogList, NamedScopeRequirement } from '../registry/mcp-catalog.js';

/**
 * What the transport of a connection that carries many HTTP requests (a 2025 session) knows
 * of each: resolved per message from the SDK's context.
 */
export type TransportResolver = (serverContext: ServerContext) => TransportCaller;

/** What a transport needs to know of one tool before it hands a request on. */
export interface ToolFacts {
  /** Whether the tool may run as an MCP task. */
  readonly task: boolean;
  /** The JSON Schema of its arguments, as `tools/list` shows it. */
  readonly inputSchema: Tool['inputSchema'];
  /** Its time and concurrency limits (`@McpTool({ timeoutMs, concurrency })`, `tools`). */
  readonly limits?: ToolLimits;
}

/** Everything one server publishes, as a caller whom no guard refuses would see it. */
export interface PublishedCatalog {
  readonly tools: Tool[];
  readonly prompts: Prompt[];
  readonly resources: Resource[];
  readonly resourceTemplates: ResourceTemplateType[];
  /** The methods kept off MCP (`@McpHidden()`, `{ hidden }`), with the reasons. */
  readonly hidden: readonly McpHiddenMethod[];
}

/**
 * The one face of a server that transports (HTTP, stdio), the CLI and the testing kit see:
 * they connect SDK servers it makes, hear its changes, and read the few facts of its
 * catalog they decide on. They never reach the registry, the invokers or the public host.
 */
export interface McpProtocolRuntime {
  /** The server's options, checked at bootstrap. */
  readonly options: McpModuleOptions;
  /** The server's localization (`i18n`), once the app is initialised; `undefined` without it. */
  readonly localization: McpLocalization | undefined;
  /** Whether requests are traced now: an answer served from a cache would have no span. */
  readonly tracing: boolean;
  /**
   * An SDK server for one serving unit (an HTTP request, a stdio connection, a 2025
   * session), for a transport of `era` to connect. Its handlers answer from the catalog.
   */
  serverFor(
    era: ProtocolEra,
    transport: TransportCaller | TransportResolver,
    unit?: ServingUnit,
  ): CatalogMcpServer;
  /**
   * What the fast path serves a stateless request of `era` with, without an SDK server per
   * request (its requests traced as the SDK servers' are).
   */
  direct(era: ProtocolEra): Promise<DirectServing>;
  /**
   * What a server of `era` states in `server/discover` (or `initialize`) to a request, now:
   * without making an SDK server for it (the Server Card asks for each request).
   */
  capabilities(era: ProtocolEra): ServerCapabilities;
  /**
   * Who the caller of a platform request is (the `identity` option, else the default): what
   * every piece of the caller's state is bound to. Resolved once per request.
   */
  identityOf(request: unknown): string;
  /** Tells `listener` of every change (list changed, resource updated); returns the unsubscribe. */
  onChange(listener: (change: McpChange) => void): () => void;
  /** The tool a name or a deprecated alias finds; `undefined` for a name it does not answer to. */
  tool(name: string): ToolFacts | undefined;
  /** Whether every caller is shown the same list (no entry's guards decide its visibility). */
  listedAlike(list: CatalogList): boolean;
  /** What `@McpScopes()` requires of the entry a request names (the OAuth step-up challenge). */
  scopeRequirementOf(request: {
    method: string;
    params?: Record<string, unknown>;
  }): NamedScopeRequirement | undefined;
  /** Every scope `@McpScopes()` names on this server, sorted. */
  namedScopes(): string[];
  /** Everything the server publishes, for the CLI. */
  published(): PublishedCatalog;
}
