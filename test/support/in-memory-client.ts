import {
  InMemoryTransport,
  type JSONRPCMessage,
  type McpServer,
  type ProtocolEra,
  type Server,
} from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** One JSON-RPC answer, as the server sent it. */
export interface Answer {
  readonly result?: any;
  readonly error?: { code: number; message: string; data?: any };
}

/** A raw JSON-RPC client of one era on the SDK's in-memory pair. */
export interface InMemoryClient {
  /** Sends a request (2026-07-28: with the `_meta` envelope) and resolves with its answer. */
  ask(method: string, params?: Record<string, unknown>): Promise<Answer>;
  /** The notifications the server sent, oldest first. */
  readonly notifications: Array<{ method: string; params?: any }>;
  /** What `initialize` answered (2025-era clients). */
  readonly initialized?: Answer;
}

const handles: StdioServerHandle[] = [];

/**
 * Connects a client of `era` to the servers `factory` makes, through the SDK's own stdio
 * entry (which binds a server of the modern era as it does over a pipe) on the in-memory
 * pair: no HTTP server, no process. 2025-era clients run the `initialize` handshake first.
 */
export async function openClient(
  factory: (era: ProtocolEra) => McpServer | Server,
  era: ProtocolEra,
  clientCapabilities: Record<string, unknown> = {},
): Promise<InMemoryClient> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  handles.push(serveStdio(({ era: opened }) => factory(opened), { transport: serverSide }));
  const pending = new Map<number, (answer: Answer) => void>();
  const notifications: Array<{ method: string; params?: any }> = [];
  // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Transport has no addEventListener
  client.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message) {
      if (!('id' in message)) notifications.push(message);
      return;
    }
    pending.get(message.id as number)?.(message as Answer);
    pending.delete(message.id as number);
  };
  await client.start();
  let nextId = 1;
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'unit', version: '1' },
  };
  const ask = async (method: string, params: Record<string, unknown> = {}): Promise<Answer> => {
    const id = nextId++;
    const meta = { ...envelope, ...(params._meta as object | undefined) };
    const sent = era === 'modern' ? { ...params, _meta: meta } : params;
    const answered = new Promise<Answer>((resolve) => pending.set(id, resolve));
    await client.send({ jsonrpc: '2.0', id, method, params: sent });
    return answered;
  };
  if (era === 'modern') return { ask, notifications };
  const initialized = await ask('initialize', {
    protocolVersion: LEGACY,
    capabilities: clientCapabilities,
    clientInfo: { name: 'unit', version: '1' },
  });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { ask, notifications, initialized };
}

/** Ends every connection opened since the last call (for `afterEach`). */
export async function closeClients(): Promise<void> {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
}
