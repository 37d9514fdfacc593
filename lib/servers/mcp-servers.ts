import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../mcp.constants.js';
import type { McpServerHost } from './mcp-server.host.js';

/**
 * The HTTP path a server claims, none with `http: false`. `'/mcp/catalog/'` and
 * `'mcp//catalog'` name the same route as `'mcp/catalog'`.
 */
const claimedPath = ({ http }: McpModuleOptions): string | undefined =>
  http === false
    ? undefined
    : (http?.path ?? DEFAULT_HTTP_PATH).split('/').filter(Boolean).join('/');

/**
 * Every MCP server of the app, one per `McpModule.forRoot()`/`forRootAsync()`
 * registration, by name. Injectable anywhere (its module is global): with several servers,
 * inject it and pick one with `get(name)`, since `McpServerHost` alone names none in
 * particular. Servers register while the app's providers are created, so read it from
 * `onModuleInit()` on, not in a constructor.
 *
 * It is also where two registrations that claim the same `name` or the same HTTP path stop
 * the app at bootstrap.
 *
 * @example
 * ```ts
 * constructor(private readonly servers: McpServers) {}
 * onModuleInit() { this.servers.get('catalog-v2').addTool(this.reports, 'quarterly'); }
 * ```
 * @publicApi
 */
@Injectable()
export class McpServers {
  private readonly byName = new Map<string, McpServerHost>();

  /** The server named `name` (its `McpModule` `name` option); throws listing the names. */
  get(name: string): McpServerHost {
    const host = this.byName.get(name);
    if (!host) {
      throw new McpConfigurationError(
        `There is no MCP server named "${name}"; the app's servers are: ` +
          `${this.names().join(', ') || 'none (import McpModule.forRoot({ name, version }))'}.`,
      );
    }
    return host;
  }

  /** Whether a server named `name` exists. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every server, in the order Nest created them. */
  all(): McpServerHost[] {
    return [...this.byName.values()];
  }

  /** The names of every server. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** @internal Called by each `McpServerHost` once its options are known. */
  register(host: McpServerHost): void {
    const { name } = host.options;
    if (this.byName.has(name)) {
      throw new McpConfigurationError(
        `Two McpModule registrations are named "${name}". Each MCP server needs its own ` +
          `name (clients see it in serverInfo, and McpServers.get(name), stdio and the CLI ` +
          `choose a server by it): rename one.`,
      );
    }
    const path = claimedPath(host.options);
    if (path !== undefined) {
      const other = this.all().find((candidate) => claimedPath(candidate.options) === path);
      if (other) {
        throw new McpConfigurationError(
          `The MCP servers "${other.options.name}" and "${name}" both claim the HTTP path ` +
            `"/${path}". Give each registration its own http.path, such as ` +
            `http: { path: 'mcp/${name}' }, or http: false for a server served only over stdio.`,
        );
      }
    }
    this.byName.set(name, host);
  }
}
