import { InMemoryTransport, type Transport } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type {
  McpProtocolRuntime,
  TransportCaller,
} from '../protocol/protocol-runtime.interface.js';

/** How one connection is served besides its transport and caller. */
export interface ConnectionOptions {
  /** 2025-era clients: served (`'serve'`, the default) or refused (`'reject'`). */
  readonly legacy?: 'serve' | 'reject';
  /** Told of what the SDK's entry rejects or fails to deliver. */
  readonly onerror?: (error: Error) => void;
}

/**
 * Serves one connection of a server over `transport` for one caller, as the SDK's stdio
 * entry serves a process's stdin and stdout: the era comes from the opening message, and
 * the connection outlives requests, so catalog changes are pushed to it. Stdio, the CLI and
 * the testing kit all connect to a server this way; only the transport differs.
 */
export function serveConnection(
  server: McpProtocolRuntime,
  transport: Transport,
  caller: TransportCaller,
  { legacy = 'serve', onerror }: ConnectionOptions = {},
): StdioServerHandle {
  // One connection, one caller: its identity is resolved once, for every message.
  const identified = { ...caller, identity: caller.identity ?? server.identityOf(caller.request) };
  return serveStdio(({ era }) => server.serverFor(era, identified, { live: true }), {
    legacy,
    transport,
    ...(onerror && { onerror }),
  });
}

/** A connection in the same process: the client's half, and what ends the connection. */
export interface InProcessConnection {
  /** Where a client sends its messages and hears the server's (not started yet). */
  readonly client: Transport;
  close(): Promise<void>;
}

/**
 * A connection to a server without any I/O: the SDK's linked in-memory pair, whose server
 * half is served by {@link serveConnection} (the same tools, guards, pipes and filters as
 * over HTTP and stdio).
 */
export function connectInProcess(
  server: McpProtocolRuntime,
  caller: TransportCaller,
): InProcessConnection {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveConnection(server, serverSide, caller);
  return { client, close: () => served.close() };
}
