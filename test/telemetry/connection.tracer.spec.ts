import { InMemoryTransport, McpServer, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { traceConnection } from '../../lib/telemetry/connection.tracer.js';
import { McpTelemetry } from '../../lib/telemetry/mcp-telemetry.js';
import { InMemoryOtel } from './in-memory-otel.js';

/** An SDK server on the in-memory pair, its transport traced, and a raw client end. */
async function tracedServer(stalls: Promise<never>) {
  const server = new McpServer({ name: 'traced', version: '1.0.0' });
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler('tools/list', () => stalls);
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const trace = traceConnection(serverSide, McpTelemetry.create({})!, {
    era: 'legacy',
    session: true,
    platformRequestOf: () => undefined,
    protocolVersion: () => server.server.getNegotiatedProtocolVersion(),
    knows: () => false,
  });
  // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Protocol has no addEventListener
  server.server.onclose = () => trace.close();
  const answers: JSONRPCMessage[] = [];
  // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Transport has no addEventListener
  client.onmessage = (message) => answers.push(message);
  await server.connect(serverSide);
  await client.start();
  return { server, client, answers };
}

describe('traceConnection', () => {
  let otel: InMemoryOtel;

  beforeAll(() => {
    otel = InMemoryOtel.install();
  });
  afterAll(() => otel?.uninstall());

  it('ends what is unanswered when the connection closes, and the session with it', async () => {
    const { server, client, answers } = await tracedServer(new Promise<never>(() => {}));
    await client.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'unit', version: '1' },
      },
    });
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(otel.spansOf('tools/list')).toEqual([]);
    await server.close();
    const [list] = otel.spansOf('tools/list');
    expect(list?.attributes).toMatchObject({
      'error.type': 'connection_closed',
      'network.transport': 'pipe',
      'mcp.protocol.version': '2025-11-25',
    });
    const [session] = await otel.histogram('mcp.server.session.duration');
    expect(session?.attributes).toEqual({
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
  });
});
