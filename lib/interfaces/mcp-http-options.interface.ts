import type { CanActivate, Type } from '@nestjs/common';

/** Options of the opt-in 2025 session mode (`http.legacySessions`). */
export interface LegacySessionOptions {
  /**
   * A session without any request for this long is closed; its client re-initialises.
   * @default 1_800_000 (30 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * At most this many sessions at once; `initialize` beyond it gets 503.
   * @default 10_000
   */
  maxSessions?: number;
  /**
   * At most this many sessions of one caller (its `identity`): opening one more closes the
   * caller's session that went longest without a request, so that one caller cannot take
   * every slot.
   * @default 10
   */
  maxSessionsPerCaller?: number;
  /**
   * At most this many resumable SSE streams of one session keep their events in memory
   * (each POST answered as a stream, and the GET stream, is one): a new stream evicts the
   * one whose last event is the oldest, whose client can then no longer resume it.
   * @default 16
   */
  maxStreamsPerSession?: number;
}

/** Options of the Streamable HTTP endpoint. */
export interface McpHttpOptions {
  /**
   * The route of the endpoint, below the app's global prefix.
   * @default 'mcp'
   */
  path?: string;
  /**
   * Guards that run on the endpoint before any MCP processing, after the app's global
   * guards, exactly like `@UseGuards()` on a controller. A rejected caller gets the
   * guard's 401/403 and the request never reaches a tool. Classes are created through
   * Nest DI in the context of `McpModule` (their dependencies must be visible there).
   * @default []
   */
  guards?: Array<Type<CanActivate> | CanActivate>;
  /**
   * Hostnames (no port) the `Host` header may name, checked on every request. Without it,
   * requests that arrive on a loopback address must name `localhost`, `127.0.0.1` or
   * `[::1]` (DNS rebinding protection). With `auth` and no `auth.resource`, the resource is
   * derived from a request whose host is in this list, and only then.
   * @default localhost names on loopback connections, no check otherwise
   * @example allowedHosts: ['localhost', 'mcp.example.com']
   */
  allowedHosts?: string[];
  /**
   * Full origins (scheme, host and port) a browser request may come from, checked on every
   * connection that carries `Origin`; any other `Origin` gets 403. A request's own origin
   * (its `Host`, once checked against `allowedHosts` or the localhost names) is always
   * accepted.
   * @default the request's own origin; on loopback connections also the localhost origins
   *   on the request's port
   * @example allowedOrigins: ['https://app.example.com', 'http://localhost:5173']
   */
  allowedOrigins?: string[];
  /**
   * `false` turns the `Host`/`Origin` checks off (for example behind a proxy that checks them).
   * @default true
   */
  dnsRebindingProtection?: boolean;
  /**
   * The largest request body the endpoint reads, in bytes. Bytes are counted while the
   * body arrives and reading stops at the limit: a bigger body gets 413 with a JSON-RPC
   * error and is never buffered whole. It replaces the platform's body limit on this
   * route only (Express `json()` 100 KB, Fastify `bodyLimit` 1 MiB).
   * @default 4194304 (4 MiB, the MCP SDK's `DEFAULT_MAX_REQUEST_BODY_SIZE`)
   */
  maxBodyBytes?: number;
  /**
   * How deep a request body may nest objects and arrays (the body itself is level 1; a
   * tool's arguments start at level 3). A deeper body gets 400 with a JSON-RPC
   * `-32600` error before any of it reaches the SDK or a DTO.
   * @default 64
   */
  maxJsonDepth?: number;
  /**
   * On `app.close()` (or a signal with `enableShutdownHooks()`), how long requests
   * already in flight may take to finish and send their answers. Requests arriving in
   * the meantime get 503 with a JSON-RPC error saying the server is shutting down.
   * @default 10000
   */
  shutdownTimeoutMs?: number;
  /**
   * At most this many long-lived streams of one caller (its `identity`) at once:
   * 2026-07-28 `subscriptions/listen` streams and 2025 sessions' GET streams. Opening one
   * more ends the caller's oldest, so that one caller cannot hold every connection.
   * @default 10
   */
  maxStreamsPerCaller?: number;
  /**
   * At most this many 2026-07-28 `subscriptions/listen` streams open on the endpoint at
   * once (all callers together); one more is refused with a JSON-RPC error. Each idle
   * stream costs a socket and a few kilobytes (bench/README.md, "Endurance").
   * @default 10000
   */
  maxListenStreams?: number;
  /**
   * How many bytes a stream (SSE: listen streams, 2025 sessions' GET streams, a call's
   * progress) may hold for a client that stops reading. Past it the stream is closed (a
   * call's is cancelled), its memory freed and a warning logged; a client that reads again
   * reconnects. One message larger than the bound is still written whole.
   * @default 1048576 (1 MiB)
   */
  maxStreamBufferBytes?: number;
  /**
   * How long a POST's body may take to arrive once its headers have (`headersTimeoutMs`).
   * A body trickled slower is answered 408 with a JSON-RPC error and its connection closed.
   * @default 30000
   */
  bodyTimeoutMs?: number;
  /**
   * How long a client may take to send a request's headers before its connection is
   * answered 408 and closed. It is set on the app's HTTP server (Node's
   * `server.headersTimeout`, whose default is 60000) at bootstrap, so it applies to every
   * route of the app, checked every quarter of it; left out, the server's own setting stays.
   * @default the HTTP server's setting (Node: 60000)
   */
  headersTimeoutMs?: number;
  /**
   * Keeps sessions (`Mcp-Session-Id`) for 2025-era clients, so that they get elicitation
   * and sampling (`inputRequired(...)` becomes real server-to-client requests), cancellation
   * with `notifications/cancelled`, `logging/setLevel`, resource subscriptions and
   * list-changed notifications on the GET stream. `true`, or limits for the sessions.
   * Sessions live in one process: behind a load balancer, route a session to one instance.
   * 2026-07-28 clients are served statelessly either way.
   * @default false (2025-era clients are served statelessly, without those features)
   */
  legacySessions?: boolean | LegacySessionOptions;
  /**
   * Answers the stateless requests that dominate traffic (`tools/call`, the lists,
   * `prompts/get`, `resources/read`, `server/discover`) on a fast path with no SDK server per
   * request, or a lean one that skips the SDK's web-standard HTTP entry, with the same
   * answers (docs/performance.md). `false` sends every request through the SDK's entry.
   * @default true
   */
  leanPath?: boolean;
  /**
   * The app's public base URL, as clients reach it (behind a proxy, with TLS): the scheme,
   * the host and any path the proxy puts before the app's routes. The Server Card names the
   * endpoint at this URL, followed by the global prefix and `path`. Without it, the card
   * names the endpoint at the request's own origin, only when its `Host` passes
   * `allowedHosts` (or, without that option, is a localhost name on a loopback connection).
   * @default none: the request's origin, when its host is allowed
   * @example publicUrl: 'https://mcp.example.com'
   */
  publicUrl?: string;
}
