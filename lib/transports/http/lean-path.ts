import {
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  type MessageClassification,
  type MessageExtraInfo,
  type ProtocolEra,
  type Result,
  type ScopeChallengeHandler,
} from '@modelcontextprotocol/server';
import type {
  CatalogList,
  McpProtocolRuntime,
  TransportCaller,
} from '../../protocol/protocol-runtime.interface.js';
import type { DirectServing } from '../../protocol/direct-serving.js';
import { MODERN_REVISION } from '../../protocol/protocol-revisions.js';
import { fastRouteOf, type FastRoute } from './fast-path.rules.js';
import type { ClientGone } from './client-gone.js';
import type { HttpExchange } from './http-exchange.factory.js';
import { LeanEventStream } from './lean-event.stream.js';
import { LeanExchangeTransport } from './lean-exchange.transport.js';
import { leanRouteOf, type LeanCatalogFacts } from './lean-path.rules.js';
import {
  directReply,
  reply,
  SSE_HEADERS,
  standInRequest,
  type Answer,
  type Served,
} from './lean-reply.js';

export { writeLeanReply, type LeanReply } from './lean-reply.js';

type CreateServer = (era: ProtocolEra, transport: TransportCaller) => McpServer;

/** One request's exchange and what the endpoint knows of it. */
interface LeanRequest {
  readonly http: HttpExchange;
  readonly caller: TransportCaller;
  readonly gone: ClientGone;
  /** The verified token (`auth`), which the SDK hands handlers as `ctx.http.authInfo`. */
  readonly authInfo: AuthInfo | undefined;
}

/** A request either path serves: its era and its message as sent. */
interface ServedRoute {
  readonly era: ProtocolEra;
  readonly message: JSONRPCRequest;
}

/** What the lean path hands the SDK's protocol layer for one request. */
interface SdkDispatch extends ServedRoute {
  /** The edge classification (modern era only). */
  readonly classification?: MessageClassification;
  /** The outcome of a handler the fast path ran already, for the SDK to finish. */
  readonly settle?: () => Promise<Result>;
}

/** The lists whose answer can be served as cached JSON text, and the catalog list of each. */
const LIST_METHODS: ReadonlyMap<string, CatalogList> = new Map([
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
]);

/** Answered alike to every caller of a locale (instructions) until the catalog changes. */
const DISCOVER = 'server/discover';

/** Whether a schema declares `x-mcp-header` parameters somewhere (decided once per schema). */
const declaresHeaders = new WeakMap<object, boolean>();

/** The classification a modern request is dispatched with (the SDK classifier's). */
const MODERN: MessageClassification = { era: 'modern', revision: MODERN_REVISION };

/**
 * Ends a stream the fast path already opened (a 2025 log came before the outcome) with
 * what the SDK server answered, as the SDK's own stream would: its messages, then the end.
 */
async function relayInto(events: LeanEventStream, { reply: answer }: Served): Promise<Served> {
  if (answer instanceof Response) {
    for (const line of (await answer.text()).split('\n')) {
      if (line.startsWith('data: ')) events.write(JSON.parse(line.slice(6)) as JSONRPCMessage);
    }
  } else if (answer.text !== '') {
    events.write(JSON.parse(answer.text) as JSONRPCMessage);
  }
  events.close();
  return { reply: { status: 200, text: '' } };
}

/**
 * The stateless requests that dominate traffic, served without the SDK's web-standard entry
 * (docs/performance.md), in two tiers:
 *
 * - the **fast path** (issue 28): a request `fast-path.rules.ts` admits is answered by the
 *   catalog's handlers directly (`DirectServing`), with no SDK server, no zod parse and no
 *   web object but the ones a handler reads; the SDK's wire codec encodes the answer;
 * - the **lean path** (issue 19): a request `lean-path.rules.ts` admits gets an SDK server
 *   from the same factory as the SDK's entry, bound to the request's era through the SDK's
 *   per-request transport (`LeanExchangeTransport`), whose `Server`/`Protocol` validates,
 *   dispatches and encodes it. It also finishes what the fast path ran but the SDK has
 *   rules of its own for (an input-required result).
 *
 * What neither admits goes to the SDK's entry. Lists every caller sees alike are kept as
 * JSON text per (era, locale, method) until the catalog changes, and written as they are
 * while no tracer records requests.
 */
export class LeanPath {
  private readonly facts: LeanCatalogFacts;
  private readonly lists = new Map<string, string>();
  /** Counts catalog changes: a list made before one is not kept. */
  private generation = 0;
  private readonly stopClearing: () => void;

  /**
   * @param challenge with `auth`: the 403 of an operation the token lacks scopes for, which
   *   the SDK's entry answers (WWW-Authenticate)
   */
  constructor(
    private readonly server: McpProtocolRuntime,
    private readonly create: CreateServer,
    private readonly legacyStateless: boolean,
    private readonly challenge?: ScopeChallengeHandler,
  ) {
    this.facts = {
      isTaskTool: (name) => server.tool(name)?.task === true,
      declaresParamHeaders: (name) => {
        const schema = server.tool(name)?.inputSchema;
        if (!schema) return false;
        let found = declaresHeaders.get(schema);
        if (found === undefined) {
          found = JSON.stringify(schema).includes('"x-mcp-header"');
          declaresHeaders.set(schema, found);
        }
        return found;
      },
    };
    // Any change of the catalog (tools, prompts, resources, templates) ends every cached list.
    this.stopClearing = server.onChange((change) => {
      if (change.kind === 'resource') return;
      this.generation += 1;
      this.lists.clear();
    });
  }

  /**
   * Answers a request the fast or the lean path admits, or returns `undefined` (before any
   * work that shows) for the SDK's entry to answer. The answer is JSON text, or a web
   * `Response` streaming the request's notifications and then its response (SSE).
   */
  async serve(
    exchange: HttpExchange,
    body: unknown,
    caller: TransportCaller,
    gone: ClientGone,
  ): Promise<Answer | undefined> {
    const authInfo = (exchange.platformRequest as { auth?: AuthInfo }).auth;
    const fast = fastRouteOf(exchange.request, body, this.legacyStateless, this.facts);
    if (fast) {
      // With `auth`, an operation the token lacks scopes for: the SDK's entry answers 403.
      if (this.challenge?.({ request: fast.message, ...(authInfo && { authInfo }) })) {
        return undefined;
      }
      // `server/discover` is served from the cache only: the lean path below fills it.
      const served = await this.cachedOr(fast, caller.locale, async () =>
        fast.message.method === DISCOVER
          ? undefined
          : this.serveDirect(fast, body, await this.server.direct(fast.era), {
              http: exchange,
              caller,
              gone,
              authInfo,
            }),
      );
      if (served) return served.reply;
    }
    const route = leanRouteOf(exchange.request, body, this.legacyStateless, this.facts);
    if (!route) return undefined;
    const served = await this.cachedOr(route, caller.locale, () =>
      this.dispatch(route, { http: exchange, caller, gone, authInfo }),
    );
    return served?.reply;
  }

  /**
   * The cached answer of a list every caller sees alike, else `answer()`, whose result is
   * kept for the next request unless the catalog changed meanwhile.
   */
  private async cachedOr(
    route: ServedRoute,
    locale: string | undefined,
    answer: () => Promise<Served | undefined>,
  ): Promise<Served | undefined> {
    const key = this.listKeyOf(route, locale);
    const text = key === undefined ? undefined : this.lists.get(key);
    if (text !== undefined) return { reply: { status: 200, text: reply(text, route.message.id) } };
    const generation = this.generation;
    const served = await answer();
    if (key !== undefined && served?.result !== undefined && generation === this.generation) {
      this.lists.set(key, served.result);
    }
    return served;
  }

  /**
   * A request the fast path admitted, answered by the catalog's handlers. The first
   * notification of the request (a 2025 server logs until `logging/setLevel`) turns the
   * answer into the SSE stream the SDK's transport makes: the notification now, the
   * response when it comes.
   */
  private serveDirect(
    route: FastRoute,
    body: unknown,
    direct: DirectServing,
    served: LeanRequest,
  ): Promise<Served> {
    const { era, message, envelope } = route;
    const { http, caller, gone, authInfo } = served;
    const { request } = http;
    return new Promise<Served>((resolve, reject) => {
      let events: LeanEventStream | undefined;
      direct
        .serve({
          message,
          ...(envelope && { envelope }),
          caller,
          cancellation: gone,
          // What the SDK's tracer reads: the revision claimed (2026), else the header (2025).
          protocolVersion:
            era === 'modern'
              ? MODERN_REVISION
              : (request.headers['mcp-protocol-version'] as string),
          ...(authInfo && { authInfo }),
          httpRequest: standInRequest(request, gone),
          notify: (notification) => {
            if (gone.aborted) return;
            if (!events) {
              events = new LeanEventStream(() => undefined);
              resolve({ reply: new Response(events.readable, { headers: SSE_HEADERS }) });
            }
            events.write(notification);
          },
        })
        .then(async (done) => {
          if (done.kind !== 'sdk') return directReply(route, done, events, gone);
          const finished = await this.finishInSdk(route, body, done.settle, served);
          return events ? relayInto(events, finished) : finished;
        })
        // Once the answer is a stream, the response ends it and this settles nothing.
        .then(resolve, reject);
    });
  }

  /** Hands what a handler of the fast path produced to an SDK server, to finish it. */
  private async finishInSdk(
    route: FastRoute,
    body: unknown,
    settle: () => Promise<Result>,
    served: LeanRequest,
  ): Promise<Served> {
    const dispatch: SdkDispatch = {
      era: route.era,
      // The request as sent: the SDK's protocol layer lifts its envelope itself.
      message: body as JSONRPCRequest,
      ...(route.era === 'modern' && { classification: MODERN }),
      settle,
    };
    // Never `undefined`: the fast path asked the scope challenge before it ran the handler.
    return (await this.dispatch(dispatch, served)) ?? { reply: { status: 500, text: '' } };
  }

  /**
   * A request served by an SDK server of its own over the lean exchange; `undefined` when
   * the SDK's entry must answer it (the scope challenge). With `settle`, the handler of the
   * request's method is the outcome the fast path already has.
   */
  private async dispatch(
    route: SdkDispatch,
    { http, caller, gone, authInfo }: LeanRequest,
  ): Promise<Served | undefined> {
    const product = this.create(route.era, caller);
    // With `auth`, an operation the token lacks scopes for is refused with the SDK's 403
    // challenge (WWW-Authenticate): the SDK's entry builds it.
    try {
      const challenge = await product.resolveScopeChallenge({
        request: route.message,
        ...(authInfo !== undefined && { authInfo }),
      });
      if (challenge !== undefined) return undefined;
    } catch {
      return undefined;
    }
    if (route.settle) {
      const { settle } = route;
      product.server.setRequestHandler(route.message.method as 'ping', () => settle() as never);
    }
    // The SDK's per-request transport, classified as the SDK's entry classifies the request:
    // connecting binds a server made for 2026-07-28 to that revision (`Server.connect`).
    const transport = new LeanExchangeTransport(route.era, route.message, route.classification);
    await product.connect(transport);
    const extra: MessageExtraInfo = {
      ...(route.classification && { classification: route.classification }),
      request: standInRequest(http.request, gone),
      ...(authInfo !== undefined && { authInfo }),
    };
    // A client that goes away cancels the call, as closing the SDK's exchange does.
    const cancel = () => void transport.close();
    const { signal } = gone;
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const answer = await transport.dispatch(extra);
      // Notifications came before the response: the answer streams them, as the SDK's does.
      if ('stream' in answer) {
        return { reply: new Response(answer.stream, { headers: SSE_HEADERS }) };
      }
      const { status, message } = answer;
      if (!('result' in message)) return { reply: { status, text: JSON.stringify(message) } };
      const result = JSON.stringify(message.result);
      return { reply: { status, text: reply(result, message.id) }, result };
    } catch (error) {
      // The SDK's entry answers 499 (no body) to an exchange closed before its answer.
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        return { reply: { status: 499, text: '' } };
      }
      throw error;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /**
   * The cache key of a list request whose answer is the same for every caller, while no
   * tracer records (a cached answer has no span): the first page with no other parameter.
   */
  private listKeyOf(route: ServedRoute, locale: string | undefined): string | undefined {
    const { method, params } = route.message;
    const list = LIST_METHODS.get(method);
    if ((!list && method !== DISCOVER) || this.server.tracing) return undefined;
    if (params !== undefined && Object.keys(params).some((key) => key !== '_meta')) {
      return undefined;
    }
    // What `server/discover` states changes with the catalog only (capabilities, extensions).
    return !list || this.server.listedAlike(list)
      ? `${route.era}\0${locale ?? ''}\0${method}`
      : undefined;
  }

  close(): void {
    this.stopClearing();
    this.lists.clear();
  }
}
