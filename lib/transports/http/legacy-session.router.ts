import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type EventStore,
  type McpServer,
} from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { jsonRpcErrorResponse, SERVER_ERROR } from './json-rpc-error.response.js';
import { SessionEventStore } from './session-event.store.js';
import type { LegacySessionOptions } from '../../interfaces/mcp-http-options.interface.js';

/** How long a 2025 client waits before it reconnects a broken stream (the SSE `retry`). */
const RECONNECT_AFTER_MS = 1_000;

/** What the SDK's transport takes besides the request (`handleRequest`'s options). */
type SdkRequestOptions = { parsedBody?: unknown; authInfo?: AuthInfo };

/** What the endpoint knows of a request: what the SDK's transport takes, and the caller. */
type LegacyRequestOptions = SdkRequestOptions & {
  /** Who the caller is (the `identity` option): the only one its sessions answer. */
  readonly identity: string;
};

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Whose session it is: the identity of the caller that opened it. */
  readonly owner: string;
  idleTimer?: NodeJS.Timeout;
  /** When it last served a request: a caller over its limit loses its stalest session. */
  lastUsed: number;
}

/** What sessions need of `scaleOut` (docs/scale-out.md): whose they are, where events go. */
export interface SharedSessionSettings {
  /** Prefixes the ids of the sessions this instance opens, to tell a misrouted request. */
  readonly instanceId: string;
  /** Keeps the events of one session's resumable streams outside this process. */
  readonly eventStoreOf: (sessionId: string) => EventStore;
}

/**
 * Serves 2025-era clients with sessions (`Mcp-Session-Id`), so that they get what the
 * stateless leg cannot give them: elicitation and sampling (the SDK's legacy shim turns a
 * tool's `inputRequired(...)` into real server-to-client requests), `notifications/
 * cancelled` reaching the call, the GET stream with list-changed and resource-updated
 * notifications, and `logging/setLevel` that lasts. The SDK's own sessionful transport
 * does the protocol; this class only keeps one per session. Sessions live in this process:
 * several instances need sticky routing, and with `scaleOut` a request for a session that
 * another instance opened is told so (its id starts with that instance's id).
 */
export class LegacySessionRouter {
  private readonly logger = new Logger(LegacySessionRouter.name);
  private readonly sessions = new Map<string, Session>();
  /**
   * The ids of each caller's sessions, so that `initialize` looks at the caller's own
   * (scanning all of them made opening 10,000 sessions cost the square of the count).
   */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly idleTimeoutMs: number;
  private readonly maxSessions: number;
  private readonly maxSessionsPerCaller: number;
  private readonly maxStreamsPerSession: number | undefined;

  constructor(
    private readonly createServer: () => McpServer,
    options: LegacySessionOptions = {},
    private readonly shared?: SharedSessionSettings,
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.maxSessionsPerCaller = options.maxSessionsPerCaller ?? 10;
    this.maxStreamsPerSession = options.maxStreamsPerSession;
  }

  /**
   * @param options what the endpoint read of the request: its body, the caller's auth and
   * identity. A session answers only to the identity that opened it: sessions must not be
   * used for authentication (2025-11-25), so a session id alone opens nothing.
   */
  async handle(request: Request, options: LegacyRequestOptions): Promise<Response> {
    const { identity, ...sdkOptions } = options;
    const { parsedBody } = sdkOptions;
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      // Another caller's session answers as one that does not exist.
      if (!session || session.owner !== identity) {
        return jsonRpcErrorResponse(404, -32001, this.sessionNotFound(sessionId));
      }
      this.touch(sessionId, session);
      return session.transport.handleRequest(request, sdkOptions);
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      return jsonRpcErrorResponse(
        400,
        SERVER_ERROR,
        'Bad Request: send the Mcp-Session-Id header this server returned to initialize, ' +
          'or initialize first.',
      );
    }
    await this.makeRoomFor(identity);
    if (this.sessions.size >= this.maxSessions) {
      return jsonRpcErrorResponse(503, SERVER_ERROR, 'Too many sessions; retry later.');
    }
    return this.open(request, sdkOptions, identity);
  }

  /** Closes the caller's stalest sessions until it may open one more. */
  private async makeRoomFor(identity: string): Promise<void> {
    const ids = this.byOwner.get(identity);
    const over = (ids?.size ?? 0) - this.maxSessionsPerCaller + 1;
    if (!ids || over <= 0) return;
    const stalest = [...ids]
      .map((id) => ({ id, lastUsed: this.sessions.get(id)?.lastUsed ?? 0 }))
      .toSorted((a, b) => a.lastUsed - b.lastUsed);
    for (const { id } of stalest.slice(0, over)) {
      this.logger.debug(`MCP session ${id} closed: its caller opened more than its limit`);
      await this.end(id);
    }
  }

  private async open(
    request: Request,
    options: SdkRequestOptions,
    owner: string,
  ): Promise<Response> {
    const server = this.createServer();
    // Known before the transport exists: a shared event store is the session's own.
    const sessionId = this.shared ? `${this.shared.instanceId}.${randomUUID()}` : randomUUID();
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        // Resumable streams: a priming event with an id and `retry`, replay on Last-Event-ID.
        eventStore:
          this.shared?.eventStoreOf(sessionId) ??
          new SessionEventStore({ maxStreamsPerSession: this.maxStreamsPerSession }),
        retryInterval: RECONNECT_AFTER_MS,
        onsessioninitialized: (id) => {
          const session: Session = { transport, server, owner, lastUsed: Date.now() };
          this.sessions.set(id, session);
          let own = this.byOwner.get(owner);
          if (!own) this.byOwner.set(owner, (own = new Set()));
          own.add(id);
          this.touch(id, session);
        },
        onsessionclosed: (id) => this.forget(id),
      });
    // SDK transports report closing through `onclose` only (they are not EventTargets).
    // oxlint-disable-next-line unicorn/prefer-add-event-listener
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, options);
  }

  /** Why a session id finds nothing here; with `scaleOut`, whether another instance has it. */
  private sessionNotFound(sessionId: string): string {
    const opener = this.shared && sessionId.slice(0, Math.max(0, sessionId.indexOf('.')));
    if (!opener || opener === this.shared?.instanceId) {
      return 'Session not found: initialize a new session.';
    }
    return (
      `Session not found on this instance (${this.shared?.instanceId}): it was opened on ` +
      `instance ${opener}. A 2025 session stays on the instance that opened it: route every ` +
      `request with its Mcp-Session-Id there (sticky sessions, docs/scale-out.md), or ` +
      `initialize a new session.`
    );
  }

  private touch(id: string, session: Session): void {
    session.lastUsed = Date.now();
    clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => {
      this.logger.debug(`MCP session ${id} closed after ${this.idleTimeoutMs} ms without requests`);
      void this.end(id);
    }, this.idleTimeoutMs);
    session.idleTimer.unref();
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    clearTimeout(session.idleTimer);
    this.sessions.delete(id);
    const own = this.byOwner.get(session.owner);
    own?.delete(id);
    if (own?.size === 0) this.byOwner.delete(session.owner);
  }

  private async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.forget(id);
    await session?.server.close().catch(() => undefined);
  }

  /** Closes every session (on application shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }
}
