import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import type { McpHttpOptions } from '../../interfaces/mcp-module-options.interface.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

const forbidden = (message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 403 });

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
  private readonly hosts?: string[];
  private readonly origins?: string[];

  constructor(options: McpHttpOptions) {
    this.enabled = options.dnsRebindingProtection !== false;
    this.hosts = options.allowedHosts;
    this.origins = options.allowedOrigins;
  }

  /** A 403 answer for a request that fails the checks, else `undefined`. */
  check(request: IncomingMessage): Response | undefined {
    if (!this.enabled) return undefined;
    const loopback = LOOPBACK.test(request.socket?.localAddress ?? '');
    const hosts = this.hosts ?? (loopback ? localhostAllowedHostnames() : undefined);
    if (hosts) {
      const host = validateHostHeader(request.headers.host, hosts);
      if (!host.ok) {
        return forbidden(
          `${host.message}. This MCP server accepts the hosts ${hosts.join(', ')}; ` +
            `list others in the http.allowedHosts option of McpModule.`,
        );
      }
    }
    const origins = this.origins ?? (loopback ? localhostAllowedOrigins() : undefined);
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
