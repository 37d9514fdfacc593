import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type LoggingLevel,
  type ProtocolEra,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { TransportCaller } from '../execution/mcp-call.js';
import { McpOperation } from '../telemetry/mcp-operation.js';
import { CONNECTION_CLOSED } from '../telemetry/mcp-semantic-conventions.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { httpPeerOf } from '../telemetry/peer-facts.js';
import type {
  CatalogServing,
  HandledServer,
  HandlerHost,
  Handlers,
} from './handlers/catalog-serving.interface.js';
import { promptHandlers } from './handlers/prompt.handlers.js';
import { resourceHandlers } from './handlers/resource.handlers.js';
import type { TaskHandlers } from './handlers/task.handlers.js';
import { toolHandlers } from './handlers/tool.handlers.js';
import type { RequestScopes } from './request-scopes.js';
import type { WireEncoder, WireError } from './wire.encoder.js';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The handlers the fast path runs: the same as every SDK server's, for its methods. */
const DIRECT_HANDLERS: readonly Handlers[] = [toolHandlers, promptHandlers, resourceHandlers];

/** One request the fast path serves, as its transport checked it. */
export interface DirectRequest {
  /** The request as the SDK's protocol layer hands it on: the envelope keys lifted out. */
  readonly message: JSONRPCRequest;
  /** The reserved `_meta` keys of a 2026-07-28 request (`ctx.mcpReq.envelope`). */
  readonly envelope?: Record<string, unknown>;
  readonly caller: TransportCaller;
  /** Whether the client went away; its `signal` is read only when a handler asks for it. */
  readonly cancellation: { readonly aborted: boolean; readonly signal: AbortSignal };
  /** The revision the request is served on (telemetry's `mcp.protocol.version`). */
  readonly protocolVersion: string | undefined;
  readonly authInfo?: AuthInfo;
  /** What the SDK hands handlers as `ctx.http.req`. */
  readonly httpRequest: Request;
  /** Sends a notification of this request to its client (the answer becomes a stream). */
  readonly notify: (notification: JSONRPCNotification) => void;
}

/**
 * What a request served directly came to: an encoded result or error, or what the handler
 * produced that the SDK's protocol layer has rules of its own for (an input-required result,
 * which the SDK checks against the request's capabilities or fulfils for a 2025 client; a
 * URL elicitation thrown on 2026-07-28), which the transport hands to the SDK to finish.
 */
export type DirectOutcome =
  | { readonly kind: 'result'; readonly result: Result }
  | { readonly kind: 'error'; readonly error: WireError }
  | { readonly kind: 'sdk'; readonly settle: () => Promise<Result> };

/** What telemetry needs to trace the fast path's requests as the SDK servers' are traced. */
export interface DirectTracing {
  readonly telemetry: McpTelemetry;
  /** Whether a `tools/call` or `prompts/get` names an entry of the catalog. */
  readonly knows: (method: string, name: unknown) => boolean;
}

const cannotSend = () =>
  Promise.reject(
    new Error('A request answered on the fast HTTP path cannot carry a server request'),
  );

/**
 * The fast path's serving of one MCP server on one era (issue 28, docs/performance.md): the
 * same handlers as every SDK server, registered once on a table instead of on an SDK server
 * per request, and run with a context made as the SDK's protocol layer makes it
 * (`Protocol._onrequest`, `Server.buildContext`). Results and errors are encoded by the
 * SDK's wire codec (`WireEncoder`). What the transport admits to it is decided by
 * `fast-path.rules.ts`; it never sees a request that needs a session, a stream of its own,
 * a task or request state.
 */
export class DirectServing {
  private readonly handlers = new Map<string, Handler>();
  /** Who each request's context belongs to (the handlers resolve their scope from it). */
  private readonly callers = new WeakMap<ServerContext, TransportCaller>();

  constructor(
    serving: CatalogServing,
    private readonly era: ProtocolEra,
    scopes: RequestScopes,
    private readonly encoder: WireEncoder,
    tasks: TaskHandlers | undefined,
    private readonly tracing?: DirectTracing,
  ) {
    const host = {
      setRequestHandler: (method: string, handler: Handler) => {
        this.handlers.set(method, handler);
      },
      projectCallToolResult: (...args: Parameters<HandlerHost['projectCallToolResult']>) =>
        encoder.projectCallToolResult(...args),
    } as unknown as HandlerHost;
    const target: HandledServer = {
      server: host,
      era,
      live: false,
      // A 2025 client served per request is promised no question and no change.
      canAsk: era === 'modern',
      ...(tasks && { tasks }),
      // A client served per request never sent `initialize`: no capabilities of its own.
      scopeOf: (ctx) => scopes.of(ctx, era, this.callers.get(ctx) ?? {}, () => undefined),
    };
    for (const register of DIRECT_HANDLERS) register(serving, target);
    // The SDK's `Protocol` answers `ping` itself, with an empty result.
    this.handlers.set('ping', () => Promise.resolve({}));
  }

  /** Whether this serving answers `method`. */
  answers(method: string): boolean {
    return this.handlers.has(method);
  }

  /**
   * Serves one request; while telemetry records, in an operation made as the SDK servers'
   * connection tracer makes it (`telemetry/connection.tracer.ts`): the SERVER span and the
   * `mcp.server.operation.duration` of the request, ended by its answer. An outcome the SDK
   * finishes is traced by the SDK server that finishes it.
   */
  async serve(request: DirectRequest): Promise<DirectOutcome> {
    const { tracing } = this;
    const tracer = tracing?.telemetry.currentTracer();
    if (!tracing || (!tracer && !tracing.telemetry.currentInstruments())) {
      return this.dispatch(request);
    }
    const { telemetry } = tracing;
    const { message, caller, cancellation } = request;
    const params = message.params;
    const operation = new McpOperation(
      telemetry,
      {
        method: message.method,
        id: message.id,
        params,
        peer: httpPeerOf(caller.request),
        knownTarget: tracing.knows(message.method, params?.name),
        protocolVersion: () => request.protocolVersion,
      },
      tracer,
    );
    let outcome!: Promise<DirectOutcome>;
    operation.run(() => {
      outcome = this.dispatch(request);
    });
    const done = await outcome;
    if (cancellation.aborted) operation.abandon(CONNECTION_CLOSED);
    else if (done.kind === 'result') {
      operation.end({ jsonrpc: '2.0', id: message.id, result: done.result });
    } else if (done.kind === 'error') {
      operation.end({ jsonrpc: '2.0', id: message.id, error: done.error });
    }
    return done;
  }

  private async dispatch(request: DirectRequest): Promise<DirectOutcome> {
    const { message } = request;
    const handler = this.handlers.get(message.method);
    if (!handler) throw new Error(`The fast path does not serve ${message.method}`);
    const ctx = this.contextOf(request);
    this.callers.set(ctx, request.caller);
    let result: Result;
    try {
      result = await handler(message, ctx);
    } catch (error) {
      // 2026-07-28 has no -32042: the SDK turns it into its own error (`Server`'s seam).
      if (
        error instanceof ProtocolError &&
        error.code === ProtocolErrorCode.UrlElicitationRequired
      ) {
        return { kind: 'sdk', settle: () => Promise.reject(error) };
      }
      return { kind: 'error', error: this.encoder.encodeError(error) };
    }
    if (isInputRequiredResult(result))
      return { kind: 'sdk', settle: () => Promise.resolve(result) };
    try {
      return { kind: 'result', result: this.encoder.encodeResult(message.method, result) };
    } catch (error) {
      return { kind: 'error', error: this.encoder.encodeError(error) };
    }
  }

  /**
   * The context of a handler, as `Protocol._onrequest` and `Server.buildContext` make it
   * for a request served per request: no session, no request state (the rules send those
   * to the SDK), logs sent on 2025-11-25 (no `logging/setLevel` reached a per-request
   * server) and, on 2026-07-28, only at the level the envelope asks for (the rules send
   * requests that ask for one to the SDK).
   */
  private contextOf(request: DirectRequest): ServerContext {
    const { message, envelope, cancellation, authInfo, httpRequest, notify } = request;
    const era = this.era;
    const send = (notification: Omit<JSONRPCNotification, 'jsonrpc'>) => {
      notify({ ...notification, jsonrpc: '2.0' });
      return Promise.resolve();
    };
    return {
      sessionId: undefined,
      mcpReq: {
        id: message.id,
        method: message.method,
        _meta: message.params?._meta,
        ...(envelope !== undefined && { envelope }),
        requestState: () => undefined,
        get signal() {
          return cancellation.signal;
        },
        send: cannotSend,
        notify: send,
        log: (level: LoggingLevel, data: unknown, logger?: string) =>
          era === 'legacy'
            ? send({ method: 'notifications/message', params: { level, data, logger } })
            : Promise.resolve(),
        elicitInput: cannotSend,
        requestSampling: cannotSend,
      },
      http: { ...(authInfo !== undefined && { authInfo }), req: httpRequest },
    } as unknown as ServerContext;
  }
}
