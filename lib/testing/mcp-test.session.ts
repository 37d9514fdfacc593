import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import { listServers, selectServer, ServerSelectionError } from '../transports/server.selector.js';
import {
  endpointPath,
  httpServerOf,
  reachServer,
  type ReachedListener,
} from './http-endpoint.locator.js';
import type { McpTestAnswer } from './mcp-test-answer.js';
import {
  ConnectionRefused,
  McpTestConnection,
  type ConnectionSettings,
  type ConnectionTarget,
} from './mcp-test.connection.js';

/** Whom a client speaks to and as whom. */
export interface ClientIdentity extends ConnectionSettings {
  readonly server: McpProtocolRuntime;
}

/**
 * What the clients made from one `McpTestClient.connect()` share: the app, the listener
 * the kit opened (if it had to), and one connection per (server, caller), opened on first
 * use and closed together.
 */
export class McpTestSession {
  private reached?: Promise<ReachedListener>;
  private readonly connections = new Map<string, Promise<McpTestConnection | ConnectionRefused>>();
  private closed = false;

  constructor(readonly app: INestApplicationContext) {}

  /** The server named `name`, or the app's only one; the error says what to pass. */
  server(name: string | undefined): McpProtocolRuntime {
    try {
      return selectServer(this.app, name);
    } catch (error) {
      if (error instanceof ServerSelectionError && error.kind === 'ambiguous') {
        const names = listServers(this.app).map((server) => `"${server.options.name}"`);
        throw new Error(
          `The app has several MCP servers (${names.join(', ')}): choose one with ` +
            `McpTestClient.connect(app, { server: '<name>' }), or mcp.onServer('<name>').`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** The open connection of this identity, or why it was refused. */
  connection(identity: ClientIdentity): Promise<McpTestConnection | ConnectionRefused> {
    if (this.closed) {
      throw new Error(
        'This McpTestClient is closed: connect a new one (McpTestClient.connect(app)).',
      );
    }
    const key = identityKey(identity);
    let opened = this.connections.get(key);
    if (!opened) {
      opened = this.open(identity);
      this.connections.set(key, opened);
      // A refusal or a failure is not kept: the next request tries again.
      opened.then(
        (outcome) => {
          if (outcome instanceof ConnectionRefused) this.connections.delete(key);
        },
        () => this.connections.delete(key),
      );
    }
    return opened;
  }

  /** Sends one request as the identity: a refused connection is the request's answer. */
  async exchange(
    identity: ClientIdentity,
    method: string,
    params: Record<string, unknown> | undefined,
    hooks: Parameters<McpTestConnection['exchange']>[2],
  ): Promise<McpTestAnswer> {
    const connection = await this.connection(identity);
    if (connection instanceof ConnectionRefused) {
      const { error, response } = connection;
      return {
        method,
        params,
        error,
        ...(response && { response: { status: response.status, headers: response.headers } }),
      };
    }
    return connection.exchange(method, params, hooks);
  }

  /** Closes one identity's connection, if it has one. */
  async closeConnection(identity: ClientIdentity): Promise<void> {
    const key = identityKey(identity);
    const opened = this.connections.get(key);
    this.connections.delete(key);
    const connection = await opened?.catch(() => undefined);
    if (connection instanceof McpTestConnection) await connection.close();
  }

  /** Closes every connection, then the listener the kit opened. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opened = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      opened.map(async (pending) => {
        const connection = await pending.catch(() => undefined);
        if (connection instanceof McpTestConnection) await connection.close();
      }),
    );
    const reached = await this.reached?.catch(() => undefined);
    await reached?.release();
  }

  private async open(identity: ClientIdentity): Promise<McpTestConnection | ConnectionRefused> {
    return McpTestConnection.open(await this.target(identity.server), identity);
  }

  /** Over HTTP when the app has an HTTP server and the server an endpoint; else in memory. */
  private async target(runtime: McpProtocolRuntime): Promise<ConnectionTarget> {
    const server = httpServerOf(this.app);
    const path = server && endpointPath(this.app, runtime);
    if (!server || path === undefined) return { kind: 'memory', app: this.app, runtime };
    this.reached ??= reachServer(this.app as INestApplication, server);
    const { origin } = await this.reached;
    return { kind: 'http', url: new URL(path, origin) };
  }
}

const identityKey = ({ server, protocolVersion, headers }: ClientIdentity): string =>
  JSON.stringify([
    server.options.name,
    protocolVersion,
    Object.entries(headers).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ]);
