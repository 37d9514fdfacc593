import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  initializeRequest,
  requireBuilt,
  ROOT,
  StdioProcess,
} from '../transports/stdio/stdio-process.js';

// The built sample, spawned as MCP clients spawn stdio servers (npm test builds it first).
const SAMPLE = 'dist-sample/main-stdio.js';

interface StdioTestClient {
  listTools(): Promise<{ tools: Array<Record<string, any>> }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

const serverParameters = (token: string) => ({
  command: process.execPath,
  args: [SAMPLE],
  cwd: ROOT,
  env: { SAMPLE_TOKEN: token },
  // The sample's logs (stderr) stay out of the test output.
  stderr: 'pipe' as const,
});

async function connectLegacy(token: string): Promise<StdioTestClient> {
  const client = new LegacyClient({ name: 'stdio-e2e-v1', version: '1.0.0' });
  await client.connect(new LegacyStdioTransport(serverParameters(token)));
  return {
    listTools: () => client.listTools() as Promise<{ tools: Array<Record<string, any>> }>,
    callTool: (name, args) =>
      client.callTool({ name, arguments: args }) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
}

async function connectModern(token: string): Promise<StdioTestClient> {
  const client = new ModernClient(
    { name: 'stdio-e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernStdioTransport(serverParameters(token)));
  expect(client.getProtocolEra()).toBe('modern');
  return {
    listTools: () => client.listTools() as Promise<{ tools: Array<Record<string, any>> }>,
    callTool: (name, args) =>
      client.callTool({ name, arguments: args }) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
}

const CLIENTS = [
  { era: '2025-11-25 (v1 client)', connect: connectLegacy },
  { era: '2026-07-28 (v2 client)', connect: connectModern },
] as const;

const newProduct = (sku: string) => ({
  sku,
  name: 'Cast-iron pan',
  description: 'A 28 cm cast-iron frying pan for every hob.',
  category: 'kitchen',
  price: 39.9,
  stock: 12,
});

const toolNames = async (client: StdioTestClient) =>
  (await client.listTools()).tools.map((tool) => tool.name).toSorted();

beforeAll(() => requireBuilt(SAMPLE, 'dist/index.js'));

describe.each(CLIENTS)('the sample over stdio, $era', ({ connect }) => {
  let clients: StdioTestClient[] = [];
  const open = async (token: string) => {
    const client = await connect(token);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    // Closing the client ends the spawned server (stdin closes, then the SDK kills it).
    await Promise.all(clients.map((client) => client.close()));
    clients = [];
  });

  it('lists every tool to the admin, and only the read tools to a reader', async () => {
    const admin = await open('admin-token');
    const reader = await open('reader-token');
    expect(await toolNames(admin)).toEqual([
      'catalog_delete',
      'catalog_get',
      'catalog_update',
      'create_product',
      'delete_product',
      'get_product',
      'reindex_catalog',
      'restock_product',
      'search_products',
    ]);
    expect(await toolNames(reader)).toEqual(['catalog_get', 'get_product', 'search_products']);
  });

  it('calls a read tool with validated arguments', async () => {
    const reader = await open('reader-token');
    const found = await reader.callTool('search_products', { query: 'headphones', limit: 2 });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent.items.length).toBeGreaterThan(0);

    const invalid = await reader.callTool('search_products', { limit: 500 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toContain('/limit');
  });

  it('lets the admin call the guarded write tool and refuses the reader', async () => {
    const admin = await open('admin-token');
    const created = await admin.callTool('create_product', newProduct('KIT-7001'));
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ sku: 'KIT-7001' });

    const reader = await open('reader-token');
    const refused = await reader.callTool('create_product', newProduct('KIT-7002'));
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toBe(
      'Forbidden (403): Missing scope(s): catalog.write; the caller has catalog.read.',
    );
  });
});

describe('the stdio process of the sample', () => {
  let spawned: StdioProcess | undefined;
  afterEach(() => spawned?.kill());

  it('writes nothing but JSON-RPC on stdout, logs on stderr, and exits with 0 when stdin closes', async () => {
    spawned = new StdioProcess([SAMPLE], { SAMPLE_TOKEN: 'admin-token' });
    spawned.send(initializeRequest(1));
    await spawned.response(1);
    spawned.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    spawned.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    spawned.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'create_product', arguments: newProduct('KIT-7003') },
    });
    expect((await spawned.response(2)).result.tools).toHaveLength(9);
    expect((await spawned.response(3)).result.isError).toBeFalsy();
    await expect(spawned.closeStdin()).resolves.toBe(0);

    expect(spawned.stdoutLines.length).toBeGreaterThanOrEqual(3);
    for (const line of spawned.stdoutLines) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
    // Nest's start-up lines and the sample's audit log went to stderr.
    expect(spawned.stderr).toContain('Serving the MCP server "catalog" over stdio');
    expect(spawned.stderr).toContain('admin called create_product');
  });

  it('refuses to start for a token the guard rejects, saying what to set', async () => {
    spawned = new StdioProcess([SAMPLE], { SAMPLE_TOKEN: 'wrong-token' });
    await expect(spawned.exited).resolves.toBe(1);
    expect(spawned.stdoutLines.join('')).toBe('');
    expect(spawned.stderr).toContain('SAMPLE_TOKEN was refused');
    expect(spawned.stderr).toContain('reader-token or admin-token');
  });
});
