import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import type { McpHttpOptions } from '../../interfaces/mcp-module-options.interface.js';
import { jsonRpcErrorResponse, SERVER_ERROR } from './json-rpc-error.response.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

const forbidden = (message: string) => jsonRpcErrorResponse(403, SERVER_ERROR, message);

/** The hosts and origins a connection is checked against; no list, no check. */
interface AllowedLists {
  readonly hosts?: string[];
  readonly origins?: string[];
}

/**
 * DNS rebinding protection (MCP Streamable HTTP: servers MUST validate `Origin`): a web
 * page on another site must not reach a server on this machine by pointing its own
 * hostname at 127.0.0.1. The checks themselves are the MCP SDK's.
 *
 * - On a connection to a loopback address, `Host` must be a localhost name and a present
 *   `Origin` must be a localhost origin, unless the options list others.
 * - `allowedHosts` / `allowedOrigins` apply to every connection (for a server reached
 *   through a proxy or on a network address).
 * - A request without `Origin` (any non-browser client) passes the origin check.
 */
export class DnsRebindingProtection {
  private readonly enabled: boolean;
  /** Built once: the lists of the options, the localhost ones where none is given. */
  private readonly onLoopback: AllowedLists;
  private readonly elsewhere: AllowedLists;

  constructor(options: McpHttpOptions) {
    this.enabled = options.dnsRebindingProtection !== false;
    const { allowedHosts: hosts, allowedOrigins: origins } = options;
    this.elsewhere = { hosts, origins };
    this.onLoopback = {
      hosts: hosts ?? localhostAllowedHostnames(),
      origins: origins ?? localhostAllowedOrigins(),
    };
  }

  /** A 403 answer for a request that fails the checks, else `undefined`. */
  check(request: IncomingMessage): Response | undefined {
    if (!this.enabled) return undefined;
    const { hosts, origins } = LOOPBACK.test(request.socket?.localAddress ?? '')
      ? this.onLoopback
      : this.elsewhere;
    if (hosts) {
      const host = validateHostHeader(request.headers.host, hosts);
      if (!host.ok) {
        return forbidden(
          `${host.message}. This MCP server accepts the hosts ${hosts.join(', ')}; ` +
            `list others in the http.allowedHosts option of McpModule.`,
        );
      }
    }
    if (origins) {
      const origin = validateOriginHeader(request.headers.origin, origins);
      if (!origin.ok) {
        return forbidden(
          `${origin.message}. This MCP server accepts browser requests from ${origins.join(', ')}; ` +
            `list others in the http.allowedOrigins option of McpModule.`,
        );
      }
    }
    return undefined;
  }
}
