import {
  LATEST_PROTOCOL_VERSION,
  METHOD_NOT_FOUND,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import type {
  McpProtocolRuntime,
  TransportCaller,
} from '../protocol/protocol-runtime.interface.js';
import { connectInProcess, type InProcessConnection } from '../transports/server.connection.js';

/** A JSON-RPC error answer, as the server sent it. */
export class InProcessRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'InProcessRequestError';
  }
}

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

/**
 * Sends MCP requests to one of the app's servers without any I/O, over the in-process
 * connection stdio and the testing kit use too (`connectInProcess`), as a minimal 2025-era
 * JSON-RPC client: the CLI ships without `@modelcontextprotocol/client`, which the testing
 * kit drives instead.
 */
export class InProcessRequester {
  private nextId = 1;
  private readonly pending = new Map<number | string, Pending>();

  private constructor(
    private readonly client: Transport,
    private readonly connection: InProcessConnection,
  ) {}

  /** Connects to a fresh SDK server of `runtime` for the given caller and runs the `initialize` handshake. */
  static async connect(
    runtime: McpProtocolRuntime,
    transport: TransportCaller = {},
  ): Promise<InProcessRequester> {
    const connection = connectInProcess(runtime, transport);
    const { client } = connection;
    const requester = new InProcessRequester(client, connection);
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Transport has no addEventListener
    client.onmessage = (message) => requester.receive(message);
    await client.start();
    await requester.request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'nestjs-mcp', version: '0' },
    });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return requester;
  }

  /** Sends one request; resolves with its result, rejects with an {@link InProcessRequestError}. */
  request<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.client
        .send({ jsonrpc: '2.0', id, method, ...(params && { params }) })
        .catch((error: Error) => {
          this.pending.delete(id);
          reject(error);
        });
    });
  }

  async close(): Promise<void> {
    for (const { reject } of this.pending.values())
      reject(new Error('The in-process connection was closed.'));
    this.pending.clear();
    await this.connection.close();
  }

  private receive(message: JSONRPCMessage): void {
    if ('method' in message) {
      // A request from the server (elicitation, sampling, roots, ping) would wait forever
      // for an answer this client cannot give: refuse it at once.
      if ('id' in message) {
        void this.client.send({
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: METHOD_NOT_FOUND,
            message: `The in-process client does not serve ${message.method}.`,
          },
        });
      }
      return;
    }
    const pending = this.pending.get(message.id!);
    if (!pending) return;
    this.pending.delete(message.id!);
    if ('error' in message) {
      pending.reject(
        new InProcessRequestError(message.error.code, message.error.message, message.error.data),
      );
    } else {
      pending.resolve(message.result);
    }
  }
}
