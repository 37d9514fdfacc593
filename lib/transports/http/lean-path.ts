import {
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type McpServer,
  type MessageExtraInfo,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  CatalogList,
  McpProtocolRuntime,
  TransportCaller,
} from '../../protocol/protocol-runtime.interface.js';
import type { HttpExchange } from './http-exchange.factory.js';
import { LeanExchangeTransport } from './lean-exchange.transport.js';
import { leanRouteOf, type LeanCatalogFacts, type LeanRoute } from './lean-path.rules.js';

/** A lean answer, ready to write: the status and the JSON text of the JSON-RPC response. */
export interface LeanReply {
  readonly status: number;
  readonly text: string;
}

type CreateServer = (era: ProtocolEra, transport: TransportCaller) => McpServer;

/** The lists whose answer can be served as cached JSON text, and the catalog list of each. */
const LIST_METHODS: ReadonlyMap<string, CatalogList> = new Map([
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
]);

/** The headers of a streamed answer: those of the SDK's per-request transport. */
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** Whether a schema declares `x-mcp-header` parameters somewhere (decided once per schema). */
const declaresHeaders = new WeakMap<object, boolean>();

/**
 * The web request the SDK hands handlers as `ctx.http.req`, on the lean path: no undici
 * `Request` is made (bench/README.md: about 27 us each). It offers the method, the URL,
 * the headers (made when first read) and the exchange's abort signal.
 */
function standInRequest(request: IncomingMessage, signal: AbortSignal): Request {
  let headers: Headers | undefined;
  return {
    method: 'POST',
    url: `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`,
    signal,
    get headers() {
      if (!headers) {
        headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value === undefined || name.startsWith(':')) continue;
          if (Array.isArray(value)) for (const item of value) headers.append(name, item);
          else headers.set(name, value);
        }
      }
      return headers;
    },
  } as unknown as Request;
}

/**
 * The lean path of the HTTP endpoint (docs/performance.md, "Lean path"): the stateless
 * requests that dominate traffic skip the SDK's web-standard entry (undici `Request` and
 * `Response`, web streams, its routing) but not its protocol layer. Each request gets a
 * server from the same factory as the SDK's entry, bound to the request's era through the
 * SDK's public per-request transport (`LeanExchangeTransport`), and the SDK's
 * `Server`/`Protocol` validates, dispatches and encodes it over that transport, which
 * captures the one answer. What `lean-path.rules.ts` does not admit goes to the SDK.
 *
 * Lists every caller sees alike are kept as JSON text per (era, locale, method) until the
 * catalog changes, and written as they are while no tracer records requests.
 */
export class LeanPath {
  private readonly facts: LeanCatalogFacts;
  private readonly lists = new Map<string, string>();
  /** Counts catalog changes: a list made before one is not kept. */
  private generation = 0;
  private readonly stopClearing: () => void;

  constructor(
    private readonly server: McpProtocolRuntime,
    private readonly create: CreateServer,
    private readonly legacyStateless: boolean,
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
   * Answers a request the lean path admits, or returns `undefined` (before any work that
   * shows) for the SDK's entry to answer. The answer is JSON text, or a web `Response`
   * streaming the request's notifications and then its response (SSE).
   */
  async serve(
    exchange: HttpExchange,
    body: unknown,
    caller: TransportCaller,
    signal: AbortSignal,
  ): Promise<LeanReply | Response | undefined> {
    const route = leanRouteOf(exchange.request, body, this.legacyStateless, this.facts);
    if (!route) return undefined;
    const listKey = this.listKeyOf(route, caller.locale);
    const cached = listKey === undefined ? undefined : this.lists.get(listKey);
    if (cached !== undefined) return { status: 200, text: reply(cached, route.message.id) };
    const generation = this.generation;
    const authInfo = (exchange.platformRequest as { auth?: AuthInfo }).auth;
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
    // The SDK's per-request transport, classified as the SDK's entry classifies the request:
    // connecting binds a server made for 2026-07-28 to that revision (`Server.connect`).
    const transport = new LeanExchangeTransport(route.era, route.message, route.classification);
    await product.connect(transport);
    const extra: MessageExtraInfo = {
      ...(route.classification && { classification: route.classification }),
      request: standInRequest(exchange.request, signal),
      ...(authInfo !== undefined && { authInfo }),
    };
    // A client that goes away cancels the call, as closing the SDK's exchange does.
    const cancel = () => void transport.close();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const answer = await transport.dispatch(extra);
      // Notifications came before the response: the answer streams them, as the SDK's does.
      if ('stream' in answer) return new Response(answer.stream, { headers: SSE_HEADERS });
      const { status, message } = answer;
      if (!('result' in message)) return { status, text: JSON.stringify(message) };
      const result = JSON.stringify(message.result);
      if (listKey !== undefined && generation === this.generation && this.cacheable(route)) {
        this.lists.set(listKey, result);
      }
      return { status, text: reply(result, message.id) };
    } catch (error) {
      // The SDK's entry answers 499 (no body) to an exchange closed before its answer.
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        return { status: 499, text: '' };
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
  private listKeyOf(route: LeanRoute, locale: string | undefined): string | undefined {
    const { method, params } = route.message;
    if (!LIST_METHODS.has(method) || this.server.tracing) return undefined;
    if (params !== undefined && Object.keys(params).some((key) => key !== '_meta')) {
      return undefined;
    }
    return this.cacheable(route) ? `${route.era}\0${locale ?? ''}\0${method}` : undefined;
  }

  /** Lists no guard makes per caller. */
  private cacheable(route: LeanRoute): boolean {
    const list = LIST_METHODS.get(route.message.method);
    return list !== undefined && this.server.listedAlike(list);
  }

  close(): void {
    this.stopClearing();
    this.lists.clear();
  }
}

/** The JSON-RPC response around a result's JSON text, in the SDK's key order. */
function reply(result: string, id: string | number): string {
  return `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/** Writes a lean answer with one `res.end()`, as the SDK's entry writes a JSON answer. */
export function writeLeanReply({ status, text }: LeanReply, res: ServerResponse): void {
  if (text === '') {
    res.writeHead(status).end();
    return;
  }
  const body = Buffer.from(text);
  res
    .writeHead(status, { 'content-type': 'application/json', 'content-length': body.byteLength })
    .end(body);
}
