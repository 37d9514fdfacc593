import type { ProtocolEra, Server, ServerContext } from '@modelcontextprotocol/server';
import type { McpCall, RequestScope } from '../../execution/mcp-call.js';
import type { McpLocalization } from '../../localization/mcp-localization.js';
import type { McpPrimitiveKind } from '../../interfaces/mcp-call-context.interface.js';
import type { McpCatalog } from '../../registry/mcp-catalog.js';
import type { DeprecatedAliases } from '../deprecated-aliases.js';
import type { McpNotifier } from '../mcp-notifier.js';
import type { TaskHandlers } from './task.handlers.js';

/** What the handlers of every SDK server of one MCP server share, made at bootstrap. */
export interface CatalogServing {
  readonly catalog: McpCatalog;
  /** The entries of a list page (the `pageSize` option). */
  readonly pageSize: number;
  /** The `listTemplatesAsResources` option. */
  readonly listTemplatesAsResources: boolean;
  /** The `i18n` option, read and checked; `undefined` without it. */
  readonly localization?: McpLocalization;
  readonly aliases: DeprecatedAliases;
  /** The server's changes, which connections that outlive requests are told of. */
  readonly notifier: McpNotifier;
  /** A call of an entry, whose phases are timed when telemetry records them. */
  call(
    kind: McpPrimitiveKind,
    name: string,
    args: Readonly<Record<string, unknown>>,
    scope: RequestScope,
  ): McpCall;
  /** Tells the developer once that a 2025-era client got an error instead of a question. */
  cannotAsk(what: string): void;
}

/**
 * What handlers are registered on and project tool results with: the SDK's low-level
 * server of a serving unit, or the fast path's table of handlers (`direct-serving.ts`).
 */
export type HandlerHost = Pick<Server, 'setRequestHandler' | 'projectCallToolResult'>;

/** One SDK server the handlers are registered on: one serving unit's (or the fast path's). */
export interface HandledServer {
  /** What carries the handlers. */
  readonly server: HandlerHost;
  readonly era: ProtocolEra;
  /** A connection that outlives requests (stdio, a 2025 session): changes are pushed to it. */
  readonly live: boolean;
  /** The SDK server of a live connection, which changes are pushed through. */
  readonly connection?: Server;
  /**
   * Whether the client can be asked questions and told of changes: a 2026-07-28 client
   * always, a 2025-era one on a connection (a 2025 client served per request is promised none).
   */
  readonly canAsk: boolean;
  /** The task methods, when the catalog has a tool that runs as a task. */
  readonly tasks?: TaskHandlers;
  /** What a call needs of the request the handler serves. */
  scopeOf(serverContext: ServerContext): RequestScope;
}

/** Registers the handlers of some MCP methods on one SDK server. */
export type Handlers = (serving: CatalogServing, target: HandledServer) => void;
