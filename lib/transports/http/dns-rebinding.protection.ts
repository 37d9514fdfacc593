import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import type { McpHttpOptions } from '../../interfaces/mcp-http-options.interface.js';
import { originPort, webOrigin } from '../../utils/web-origin.util.js';
import { jsonRpcErrorResponse, SERVER_ERROR } from './json-rpc-error.response.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const LOCALHOST_NAMES: readonly string[] = localhostAllowedHostnames();
/** How much of a refused header a 403 quotes. */
const QUOTED_LENGTH = 200;
/** How many passed `Host` values are remembered: a server answers to a handful. */
const REMEMBERED_HOSTS = 64;

const forbidden = (message: string) => jsonRpcErrorResponse(403, SERVER_ERROR, message);

/** What the origin check knows of one request, once its `Host` has been checked (or not). */
interface OriginContext {
  readonly loopback: boolean;
  /** The request's own origin: the connection's scheme and a `Host` the Host check passed. */
  readonly own?: string;
}

/**
 * DNS rebinding protection. MCP Streamable HTTP, "Security Warning" (2025-11-25 and
 * 2026-07-28 `basic/transports`): servers MUST validate the `Origin` header on all incoming
 * connections, and answer a present, invalid `Origin` with 403. A web page on another site
 * must not reach this server by pointing its own hostname at its address. The whole rule
 * is here:
 *
 * - `Host`: checked against `http.allowedHosts` on every connection (the SDK's
 *   `validateHostHeader`, hostnames without port); without the option, on loopback
 *   connections only, against the localhost names.
 * - `Origin`, on every connection, when the request carries one (a request without it is
 *   not a browser's and passes): it must equal, as scheme + host + port, one of
 *   `http.allowedOrigins` (full origins), or the request's own origin, the connection's
 *   scheme with the `Host` header, when the Host check above ran (a rebinding page sends a
 *   `Host` of its own name, so an unchecked `Host` proves nothing). A loopback connection
 *   also takes the localhost origins (`localhost`, `127.0.0.1`, `[::1]`) at the request's
 *   own port, the other names of the same server: a page on `http://localhost:9999` may
 *   not call a server on `localhost:3000`. The SDK's `validateOriginHeader` compares
 *   hostnames only, so the comparison is this file's.
 * - `http.dnsRebindingProtection: false` turns both checks off.
 */
export class DnsRebindingProtection {
  private readonly enabled: boolean;
  private readonly allowedHosts?: readonly string[];
  /** `http.allowedOrigins`, serialized; `undefined` when the option is not set. */
  private readonly allowedOrigins?: ReadonlySet<string>;
  /**
   * `Host` values the check passed, by the list they passed (the SDK's check parses each
   * with `new URL()`, about 6 us a request: bench/README.md, issue 28).
   */
  private readonly passedHosts = new Set<string>();

  constructor(options: McpHttpOptions) {
    this.enabled = options.dnsRebindingProtection !== false;
    this.allowedHosts = options.allowedHosts;
    if (options.allowedOrigins) {
      this.allowedOrigins = new Set(
        options.allowedOrigins.map(webOrigin).filter((origin) => origin !== undefined),
      );
    }
  }

  /** A 403 answer for a request that fails the checks, else `undefined`. */
  check(request: IncomingMessage): Response | undefined {
    if (!this.enabled) return undefined;
    const loopback = LOOPBACK.test(request.socket?.localAddress ?? '');
    const hosts = this.allowedHosts ?? (loopback ? LOCALHOST_NAMES : undefined);
    const { host } = request.headers;
    const remembered = `${hosts === LOCALHOST_NAMES ? 'localhost' : 'allowed'} ${host}`;
    if (hosts && !this.passedHosts.has(remembered)) {
      const checked = validateHostHeader(host, [...hosts]);
      if (!checked.ok) {
        return forbidden(
          `${checked.message.slice(0, QUOTED_LENGTH)}. This MCP server accepts the hosts ` +
            `${hosts.join(', ')}; list others in the http.allowedHosts option of McpModule.`,
        );
      }
      if (this.passedHosts.size < REMEMBERED_HOSTS) this.passedHosts.add(remembered);
    }
    const origin = request.headers.origin;
    if (origin === undefined || origin === '') return undefined;
    const scheme = (request.socket as { encrypted?: boolean } | undefined)?.encrypted
      ? 'https'
      : 'http';
    const own = hosts && host ? webOrigin(`${scheme}://${host}`) : undefined;
    if (this.originAllowed(origin, { loopback, own })) return undefined;
    return forbidden(
      `Invalid Origin: ${origin.slice(0, QUOTED_LENGTH)}. This MCP server accepts browser ` +
        `requests from ${this.acceptedOrigins({ loopback, own })}; list others, as full ` +
        `origins such as https://app.example.com, in the http.allowedOrigins option of McpModule.`,
    );
  }

  private originAllowed(origin: string, context: OriginContext): boolean {
    const given = webOrigin(origin);
    if (given === undefined) return false;
    if (this.allowedOrigins?.has(given) || given === context.own) return true;
    if (!context.loopback || context.own === undefined) return false;
    const url = new URL(given);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      LOCALHOST_NAMES.includes(url.hostname) &&
      originPort(given) === originPort(context.own)
    );
  }

  /**
   * What the 403 says is accepted, so that the developer sees which option to change (no
   * port or host of the request: the same refusal reads the same on every instance).
   */
  private acceptedOrigins({ loopback, own }: OriginContext): string {
    const accepted = [...(this.allowedOrigins ?? [])];
    if (own !== undefined) {
      accepted.unshift(
        loopback ? 'its own origin (localhost names on its port)' : 'its own origin',
      );
    }
    return accepted.length > 0 ? accepted.join(', ') : 'no origin';
  }
}
