import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { unknownServerMessage } from '../messages/serving.messages.js';
import { McpServerHost } from './mcp-server.host.js';

/**
 * Every MCP server of the app, one per `McpModule.forRoot()`/`forRootAsync()`
 * registration, by name. Injectable anywhere (its module is global): with several servers,
 * inject it and pick one with `get(name)`, since `McpServerHost` alone names none in
 * particular. Servers register while the app's providers are created, so read it from
 * `onModuleInit()` on, not in a constructor.
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
  constructor(private readonly discovery: DiscoveryService) {}

  /** The server named `name` (its `McpModule` `name` option); throws listing the names. */
  get(name: string): McpServerHost {
    const host = this.all().find((candidate) => candidate.options.name === name);
    if (!host) throw new McpConfigurationError(unknownServerMessage(name, this.names()));
    return host;
  }

  /** Whether a server named `name` exists. */
  has(name: string): boolean {
    return this.all().some((host) => host.options.name === name);
  }

  /** Every server, in the order Nest created them. */
  all(): McpServerHost[] {
    // Each registration's module holds its own host; names are unique (checked at bootstrap).
    const hosts = this.discovery
      .getProviders()
      .flatMap(({ instance }) => (instance instanceof McpServerHost ? [instance] : []));
    return [...new Set(hosts)];
  }

  /** The names of every server. */
  names(): string[] {
    return this.all().map((host) => host.options.name);
  }
}
