import type { INestApplicationContext } from '@nestjs/common';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import { ProtocolRuntimes } from '../protocol/protocol-runtimes.js';

/**
 * Every MCP server of an app, one per `McpModule` registration, as the run times the
 * registrations registered (in the order Nest created them). Stdio, the CLI and the testing
 * kit find servers only through this function and {@link selectServer}.
 */
export function listServers(app: INestApplicationContext): McpProtocolRuntime[] {
  return tryGet(app, ProtocolRuntimes)?.all() ?? [];
}

/**
 * The server to serve or inspect: the one named `name` (its `McpModule` `name` option), or
 * the only one when `name` is not given. Throws a {@link ServerSelectionError} that says
 * what to pass otherwise.
 */
export function selectServer(app: INestApplicationContext, name?: string): McpProtocolRuntime {
  const servers = listServers(app);
  const names = servers.map((server) => server.options.name);
  if (servers.length === 0) {
    throw new ServerSelectionError(
      'none',
      'The module has no MCP server: import McpModule.forRoot({ name, version }) in it (or in a module it imports).',
    );
  }
  if (name !== undefined) {
    const server = servers.find((candidate) => candidate.options.name === name);
    if (!server) {
      throw new ServerSelectionError(
        'unknown',
        `The module has no MCP server named "${name}"; its servers are: ${names.join(', ')}. ` +
          'Pass one of these names (the `name` option of its McpModule registration).',
      );
    }
    return server;
  }
  if (servers.length > 1) {
    throw new ServerSelectionError(
      'ambiguous',
      `The module has ${servers.length} MCP servers (${names.join(', ')}): choose one by name ` +
        `(bootstrapStdio(AppModule, { server: '${names[0]}' }), or --server ${names[0]} on the CLI).`,
    );
  }
  return servers[0]!;
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
