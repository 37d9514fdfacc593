import type { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpServerHost } from '../servers/mcp-server.host.js';
import { McpServers } from '../servers/mcp-servers.js';

/**
 * Every MCP server of an app: one per `McpModule` registration, as the global
 * {@link McpServers} registry holds them (each registration has its own `McpServerHost`).
 * The scan of the app's providers is a fallback for a context without the registry.
 * Stdio, the CLI and the in-process requester only go through this function and
 * {@link selectServerHost}.
 */
export function listServerHosts(app: INestApplicationContext): McpServerHost[] {
  const registered = tryGet(app, McpServers)?.all() ?? [];
  if (registered.length > 0) return registered;
  const hosts = new Set<McpServerHost>();
  const discovery = tryGet(app, DiscoveryService);
  for (const wrapper of discovery?.getProviders() ?? []) {
    if (wrapper.instance instanceof McpServerHost) hosts.add(wrapper.instance);
  }
  if (hosts.size === 0) {
    const host = tryGet(app, McpServerHost);
    if (host) hosts.add(host);
  }
  return [...hosts];
}

/**
 * The server to serve or inspect: the one named `name` (its `McpModule` `name` option), or
 * the only one when `name` is not given. Throws a {@link ServerSelectionError} that says
 * what to pass otherwise.
 */
export function selectServerHost(app: INestApplicationContext, name?: string): McpServerHost {
  const hosts = listServerHosts(app);
  const names = hosts.map((host) => host.options.name);
  if (hosts.length === 0) {
    throw new ServerSelectionError(
      'none',
      'The module has no MCP server: import McpModule.forRoot({ name, version }) in it (or in a module it imports).',
    );
  }
  if (name !== undefined) {
    const host = hosts.find((candidate) => candidate.options.name === name);
    if (!host) {
      throw new ServerSelectionError(
        'unknown',
        `The module has no MCP server named "${name}"; its servers are: ${names.join(', ')}. ` +
          'Pass one of these names (the `name` option of its McpModule registration).',
      );
    }
    return host;
  }
  if (hosts.length > 1) {
    throw new ServerSelectionError(
      'ambiguous',
      `The module has ${hosts.length} MCP servers (${names.join(', ')}): choose one by name ` +
        `(bootstrapStdio(AppModule, { server: '${names[0]}' }), or --server ${names[0]} on the CLI).`,
    );
  }
  return hosts[0]!;
}

/** The app has no MCP server, or not the one asked for, or several and none was chosen. */
export class ServerSelectionError extends Error {
  constructor(
    readonly kind: 'none' | 'unknown' | 'ambiguous',
    message: string,
  ) {
    super(message);
    this.name = 'ServerSelectionError';
  }
}

function tryGet<T>(app: INestApplicationContext, token: abstract new (...args: any[]) => T) {
  try {
    return app.get(token, { strict: false });
  } catch {
    return undefined;
  }
}
