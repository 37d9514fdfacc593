import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import type {
  McpProtocolRuntime,
  TransportCaller,
} from '../../protocol/protocol-runtime.interface.js';
import type { McpHttpOptions } from '../../interfaces/mcp-http-options.interface.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../../utils/json-input.util.js';
import { DnsRebindingProtection } from './dns-rebinding.protection.js';
import type { HttpExchange } from './http-exchange.factory.js';
import { bodyReadBefore } from './express-body.middleware.js';
import { CallerStreams } from './caller-streams.js';
import { ClientGone } from './client-gone.js';
import { InFlightRequests } from './in-flight-requests.tracker.js';
import { cutOffAtShutdown } from './shutdown-cutoff.js';
import {
  checkParsedJsonBody,
  readJsonBody,
  type JsonBodyLimits,
  type JsonBodyOutcome,
} from './json-body.reader.js';
import { httpErrors } from './json-rpc-error.response.js';
import { LegacySessionRouter } from './legacy-session.router.js';
import { operationScopeChallenge } from './scope-challenge.resolver.js';
import {
  DEFAULT_MAX_STREAM_BUFFER_BYTES,
  writeWebResponse,
  type StreamBufferBound,
} from './web-response.writer.js';
import { negotiateLocale } from './content-language.js';
import { LeanPath, writeLeanReply, type LeanReply } from './lean-path.js';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
const DEFAULT_STREAMS_PER_CALLER = 10;
/** Idle listen streams cost a few kilobytes each (bench/README.md, "Endurance"). */
const DEFAULT_MAX_LISTEN_STREAMS = 10_000;
/** Long enough for a body on a slow link; a body trickled slower is hostile or stuck. */
const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** The bounds of a request body (checked at bootstrap: validateMcpModuleOptions). */
function bodyLimitsOf(options: McpHttpOptions): JsonBodyLimits {
  return {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
  };
}

/** `http.maxStreamBufferBytes`, and the warning for each stream closed at it. */
function streamBoundOf(options: McpHttpOptions, logger: Logger): StreamBufferBound {
  const maxBufferBytes = options.maxStreamBufferBytes ?? DEFAULT_MAX_STREAM_BUFFER_BYTES;
  return {
    maxBufferBytes,
    onOverflow: (queued) =>
      logger.warn(
        `Closed an MCP stream whose client stopped reading: ${queued} bytes waited for it, ` +
          `more than http.maxStreamBufferBytes (${maxBufferBytes}); a client that reads ` +
          `again reconnects`,
      ),
  };
}

/** A 2025 session's GET stream, or a 2026-07-28 `subscriptions/listen` stream. */
function opensStream(method: string | undefined, body: unknown): boolean {
  return (
    method === 'GET' ||
    (typeof body === 'object' &&
      body !== null &&
      (body as { method?: unknown }).method === 'subscriptions/listen')
  );
}

/**
 * JSON-RPC batches (an array body) exist only up to protocol revision 2025-03-26 (a
 * missing `MCP-Protocol-Version` means that revision); 2025-06-18 removed them, and
 * 2026-07-28 has none. The SDK's legacy leg would still run a batch, so a batch under a
 * later revision is refused here with a JSON-RPC error instead.
 */
function refuseBatch(body: unknown, request: IncomingMessage): Response | undefined {
  if (!Array.isArray(body)) return undefined;
  const version = request.headers['mcp-protocol-version'];
  if (typeof version !== 'string' || version < '2025-06-18') return undefined;
  return httpErrors.invalidInput(
    `JSON-RPC batches are not supported in protocol revision ${version}; send one message per POST`,
  );
}

/**
 * The Streamable HTTP endpoint of one MCP server, serving both protocol eras from one
 * path through the SDK: 2026-07-28 requests statelessly, 2025-era clients through the
 * SDK's stateless legacy leg (initialize handshake, GET/DELETE answered 405). It owns the
 * reading of its request bodies (see `json-body.reader.ts`) and its shutdown drain.
 */
export class StreamableHttpEndpoint {
  private readonly logger = new Logger(StreamableHttpEndpoint.name);
  /**
   * The SDK builds a server per request through a factory that receives the web `Request`
   * it was given (`requestInfo`); this map leads from it to the platform request and
   * response, and so to guards, request scope and `@Req()` in tools. (An
   * `AsyncLocalStorage` would do the same but turns on promise hooks for the whole
   * process: bench/README.md measured +0.2 ms per request.)
   */
  private readonly transports = new WeakMap<Request, TransportCaller>();
  private readonly handler: McpHttpHandler;
  /** 2025-era sessions, when `http.legacySessions` asks for them. */
  private readonly sessions?: LegacySessionRouter;
  /** The lean path for the requests that dominate traffic (`http.leanPath`, on by default). */
  private readonly lean?: LeanPath;
  private readonly stopNotifications: () => void;
  private readonly dnsRebinding: DnsRebindingProtection;
  private readonly inFlight = new InFlightRequests();
  /** The long-lived streams of each caller, at most `http.maxStreamsPerCaller` each. */
  private readonly streams: CallerStreams;
  private readonly shutdownTimeoutMs: number;
  /** What a stream may hold for a client that stops reading (`http.maxStreamBufferBytes`). */
  private readonly streamBound: StreamBufferBound;
  private shuttingDown = false;
  private closed = false;
  readonly limits: JsonBodyLimits;
  /** The server's `i18n`, read when the first request comes (the server is ready by then). */
  private get localization() {
    return this.server.localization;
  }

  /** @param resourceServer the server's OAuth resource server, when it sets `auth` */
  constructor(
    private readonly server: McpProtocolRuntime,
    options: McpHttpOptions = {},
    resourceServer?: OAuthResourceServer,
  ) {
    this.dnsRebinding = new DnsRebindingProtection(options);
    this.limits = bodyLimitsOf(options);
    this.streamBound = streamBoundOf(options, this.logger);
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.streams = new CallerStreams(options.maxStreamsPerCaller ?? DEFAULT_STREAMS_PER_CALLER);
    const transportOf = (request?: Request): TransportCaller =>
      (request && this.transports.get(request)) ?? {};
    // With `auth`, an operation whose `@McpScopes()` the token lacks is refused by the
    // SDK with 403 insufficient_scope before it is dispatched (see scope-challenge.resolver.ts).
    const challenge = resourceServer && operationScopeChallenge(server, resourceServer);
    const create: McpProtocolRuntime['serverFor'] = (...args) => {
      const product = server.serverFor(...args);
      if (challenge) product.resolveScopeChallenge = challenge;
      return product;
    };
    const { legacySessions } = options;
    const { scaleOut, name } = server.options;
    if (legacySessions) {
      this.sessions = new LegacySessionRouter(
        () =>
          create('legacy', (ctx) => transportOf(ctx.http?.req), {
            live: true,
          }),
        legacySessions === true ? {} : legacySessions,
        scaleOut && {
          instanceId: scaleOut.instanceId,
          eventStoreOf: (sessionId: string) => scaleOut.sessionEventStore(name, sessionId),
        },
      );
    }
    if (options.leanPath !== false) {
      this.lean = new LeanPath(
        server,
        (era, transport) => create(era, transport),
        !this.sessions,
        challenge,
      );
    }
    this.handler = createMcpHandler(
      ({ era, requestInfo }) => create(era, transportOf(requestInfo)),
      {
        // With sessions, 2025-era traffic is routed to them before it reaches the handler.
        legacy: this.sessions ? 'reject' : 'stateless',
        maxSubscriptions: options.maxListenStreams ?? DEFAULT_MAX_LISTEN_STREAMS,
        onerror: (error) => this.logger.debug(`MCP request rejected or failed: ${error.message}`),
      },
    );
    // 2026-07-28 clients hear of changes on their `subscriptions/listen` streams.
    this.stopNotifications = server.onChange((change) => {
      const { notify } = this.handler;
      if (change.kind === 'tools') notify.toolsChanged();
      else if (change.kind === 'prompts') notify.promptsChanged();
      else if (change.kind === 'resources') notify.resourcesChanged();
      else if (change.kind === 'resource') notify.resourceUpdated(change.uri);
    });
  }

  async handle(exchange: HttpExchange): Promise<void> {
    const { response } = exchange;
    // With `i18n`, negotiated once per request: every answer says which language it is in.
    const locale = this.localization && negotiateLocale(this.localization, exchange);
    if (this.shuttingDown) {
      await this.write(httpErrors.shuttingDown(), response, new AbortController().signal);
      return;
    }
    const clientGone = new ClientGone();
    const release = this.inFlight.enter(() =>
      cutOffAtShutdown(exchange, clientGone, this.shutdownTimeoutMs),
    );
    try {
      let answered = false;
      response.on('close', () => {
        if (!answered) clientGone.abort();
      });
      const answer = await this.fetch(exchange, clientGone, release, locale);
      // Cut off by shutdown past http.shutdownTimeoutMs: its client has its answer already.
      if (response.writableEnded) return;
      // An answer sent while shutting down ends its connection, so the client does not
      // send its next request to a server that is closing.
      if (this.shuttingDown && !response.headersSent) response.setHeader('connection', 'close');
      if (answer instanceof Response) await this.write(answer, response, clientGone.signal);
      else writeLeanReply(answer, response);
      answered = true;
    } finally {
      release();
    }
  }

  private async write(answer: Response, response: ServerResponse, signal: AbortSignal) {
    try {
      await writeWebResponse(answer, response, signal, this.streamBound);
    } catch (error) {
      // The answer is owned by this endpoint: a failed write (the socket went away) ends
      // here, never in the app's HTTP exception handling.
      this.logger.debug(`MCP answer not fully written: ${(error as Error).message}`);
      // Ended by shutdown's cut-off meanwhile: its answer is on its way, not to be reset.
      if (!response.writableEnded) response.destroy();
    }
  }

  /** @param untrack releases a request that opens a long-lived stream from the drain count */
  private async fetch(
    exchange: HttpExchange,
    gone: ClientGone,
    untrack: () => void,
    locale: string | undefined,
  ): Promise<Response | LeanReply> {
    const { request } = exchange;
    const rejected = this.dnsRebinding.check(request);
    if (rejected) return rejected;
    try {
      let body: unknown;
      if (request.method === 'POST') {
        const outcome = await this.bodyOf(exchange);
        if (!outcome.ok) return outcome.answer;
        body = outcome.body;
        const batchRefused = refuseBatch(body, request);
        if (batchRefused) return batchRefused;
      }
      // Who the caller is, once per request, after the route's guards ran (they may set
      // `request.user`): what its sessions, state and tasks are bound to.
      const caller: TransportCaller = {
        request: exchange.platformRequest,
        response: exchange.platformResponse,
        ...(locale !== undefined && { locale }),
        identity: this.server.identityOf(exchange.platformRequest),
      };
      if (request.method === 'POST') {
        const lean = await this.lean?.serve(exchange, body, caller, gone);
        if (lean) return lean;
      }
      if (opensStream(request.method, body)) {
        // Out of the drain count: shutdown ends such streams instead of waiting for them.
        untrack();
        this.streams.open(caller.identity!, exchange.response);
      }
      const webRequest = await toWebRequest(request, body, { signal: gone.signal });
      this.transports.set(webRequest, caller);
      const auth = (exchange.platformRequest as { auth?: AuthInfo }).auth;
      const options = {
        ...(body !== undefined && { parsedBody: body }),
        ...(auth !== undefined && { authInfo: auth }),
      };
      if (this.sessions && (await isLegacyRequest(webRequest, body))) {
        return await this.sessions.handle(webRequest, { ...options, identity: caller.identity! });
      }
      return await this.handler.fetch(webRequest, options);
    } catch (error) {
      // Logged in full on the server; the client learns nothing of it (no message, stack,
      // path or class name), in production or not.
      this.logger.error(`MCP endpoint failed: ${(error as Error).stack ?? String(error)}`);
      return httpErrors.internal();
    }
  }

  /**
   * The JSON body of a POST, read by whoever could read it first: Fastify's parser (with
   * this endpoint's limit, see `fastify-route.hook.ts`), the endpoint's Express middleware,
   * the app's own parser (a path the middleware did not recognise), or else the endpoint
   * here. Every path ends in the same media type, depth and key checks.
   */
  private bodyOf(exchange: HttpExchange): Promise<JsonBodyOutcome> | JsonBodyOutcome {
    const { request } = exchange;
    const read = bodyReadBefore(exchange);
    if (!read) return readJsonBody(request, this.limits);
    if ('ok' in read) return read;
    return checkParsedJsonBody(request, read.value, this.limits.maxJsonDepth);
  }

  /**
   * Stops taking requests (new ones get 503) and waits, at most `http.shutdownTimeoutMs`,
   * until those in flight have been answered; those still running then are cut off (see
   * `close()`).
   */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    const pending = this.inFlight.size;
    if (pending > 0) {
      this.logger.log(
        `Shutting down: waiting up to ${this.shutdownTimeoutMs} ms for ${pending} MCP request(s) in flight`,
      );
      await this.inFlight.drained(this.shutdownTimeoutMs);
    }
    // Streams that last as long as clients want (2025 sessions' GET streams, listen
    // streams) end now, or the HTTP server would wait for them forever.
    await this.close();
  }

  /**
   * Ends what is still open, safe to call more than once: requests still in flight get a
   * JSON-RPC error and their calls are aborted (the HTTP server waits for every open
   * request before it closes, so a call that never returns would keep the process alive),
   * listen streams get their final result, 2025 sessions close, notifications stop.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.shuttingDown = true;
    const cut = this.inFlight.cutOff();
    if (cut > 0) {
      this.logger.warn(
        `Shutting down: cut off ${cut} MCP request(s) still in flight after ` +
          `${this.shutdownTimeoutMs} ms (http.shutdownTimeoutMs); their clients got an error ` +
          `and their calls' signals aborted`,
      );
    }
    this.stopNotifications();
    this.lean?.close();
    await this.sessions?.close();
    await this.handler.close();
  }
}
