import type {
  ClientCapabilities,
  InputResponseView,
  LoggingLevel,
  ProtocolEra,
  RequestId,
  ServerContext,
} from '@modelcontextprotocol/server';

/**
 * Why guards run: `'call'` before a tool, prompt or resource runs, `'list'` to decide
 * whether a caller sees it in a list. One rule then both hides an entry and refuses its
 * call; a guard that wants an entry listed but refuses some calls tells the two apart
 * with this.
 */
export type McpPhase = 'list' | 'call';

/**
 * The kind of MCP primitive a call or a listing check is about: `'method'` for a JSON-RPC
 * method an extension of the app adds (`@McpMethod()`).
 */
export type McpPrimitiveKind = 'tool' | 'prompt' | 'resource' | 'method';

/** The task a call runs as (`ctx.task`). */
export interface McpTaskContext {
  /** The task id the client polls. */
  readonly id: string;
  /** Shows the client what the task is doing now (its `statusMessage`). */
  setStatus(message: string): Promise<void>;
}

/**
 * One call of a tool, prompt or resource, as guards, interceptors, filters and
 * `@McpContext()` parameters see it. It also carries what a long call needs: progress,
 * logs to the client, cancellation and the answers the client gave to input requests.
 * @publicApi
 */
export interface McpCallContext {
  /** What is called: a tool, a prompt or a resource. */
  readonly kind: McpPrimitiveKind;
  /** The name of the tool or prompt, the URI of the resource, or the extension method. */
  readonly name: string;
  /** Whether guards run for a call or for listing. */
  readonly phase: McpPhase;
  /**
   * The caller's scopes, as the `callerScopes` option of `McpModule` reads them from the
   * request (by default `request.user.scopes`, then `request.auth.scopes`).
   */
  readonly scopes: readonly string[];
  /**
   * The arguments as the client sent them, before validation and transformation (a
   * resource's URI template variables); `{}` when listing.
   */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** `'modern'` for protocol revision 2026-07-28, `'legacy'` for 2025-era clients. */
  readonly era: ProtocolEra;
  /**
   * What the client declared it can do (elicitation, sampling, roots, ...): per request on
   * 2026-07-28, from `initialize` on 2025-era connections. Ask only for input it can give.
   */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /**
   * The extensions the client declared (SEP-2133), by identifier with their settings: per
   * request on 2026-07-28, from `initialize` on 2025-era connections; `{}` for none. Offer
   * what an extension adds only to a caller that declared it.
   * @example if (ctx.extensions['com.example/audit']) { ... }
   */
  readonly extensions: Readonly<Record<string, object>>;
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /**
   * Fires when the client cancels the call (`notifications/cancelled`) or closes the
   * HTTP response stream (which is how 2026-07-28 clients cancel). Pass it on to `fetch`,
   * database drivers and loops.
   */
  readonly signal: AbortSignal;
  /**
   * The platform's HTTP request (Express or Fastify request) over HTTP; the request given
   * to `bootstrapStdio()` over stdio. Guards written for HTTP read it through
   * `context.switchToHttp().getRequest()`.
   */
  readonly httpRequest: unknown;
  /** The MCP SDK's own request context, for what this interface does not cover. */
  readonly serverContext: ServerContext;
  /**
   * The language of this call's texts: negotiated from `Accept-Language` over HTTP, from
   * the `locale` option or the environment over stdio (docs/i18n.md); the default locale,
   * or `'en'` without `i18n`.
   */
  readonly locale: string;
  /**
   * The task this call runs as (`@McpTool({ task })`, docs/tasks.md), or `undefined` when
   * it answers in the request.
   */
  readonly task: McpTaskContext | undefined;

  /**
   * Reports progress to the client, when it asked for it (it sent a `progressToken`);
   * otherwise does nothing. Values must rise: a value not above the last one is dropped,
   * as the protocol requires.
   * @example await ctx.reportProgress(50, 100, 'Half of the products imported');
   */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;

  /**
   * Sends a log message to the client (`notifications/message`), if the client asked for
   * logs at this level or a more verbose one: `logging/setLevel` on 2025-era connections,
   * the per-request level on 2026-07-28. Without a requested level nothing is sent.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;

  /**
   * The answer the client gave to one of the input requests this call returned earlier
   * (`inputRequired(...)`, 2026-07-28 multi round-trip, or server-to-client requests on a
   * 2025 session): accepted elicitation content, a sampling result or roots. `kind:
   * 'missing'` on the first round.
   */
  input(key: string): InputResponseView;

  /**
   * The content the user accepted for an elicitation input request, or `undefined` (not
   * asked yet, declined or cancelled). The values come from the client: validate them.
   */
  acceptedInput<T extends Record<string, unknown> = Record<string, unknown>>(
    key: string,
  ): T | undefined;

  /**
   * The state this call put in its previous `inputRequired({ requestState })`, verified:
   * states minted with {@link McpCallContext.mintRequestState} are signed (HMAC), and a
   * tampered or expired state is refused before the method runs.
   */
  requestState<T = unknown>(): T | undefined;

  /** Signs state to carry to the next round (`inputRequired({ requestState })`). */
  mintRequestState<T>(state: T): Promise<string>;
}
