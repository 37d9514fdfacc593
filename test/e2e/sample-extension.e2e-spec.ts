/**
 * The sample's own extension, `com.example/audit` (sample/catalog/catalog-audit.extension.ts):
 * advertised, callable by an admin, refused to a reader by its scope, validated by its DTO
 * and refused to a client that did not declare it; over HTTP on 2026-07-28 and over stdio on
 * both revisions (the built sample, as MCP clients spawn it).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { AUDIT_EXTENSION } from '../../sample/catalog/catalog-audit.extension.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { anyResultSchema, errorOf } from '../support/mcp-clients.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { postModern } from '../support/mcp-post.js';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';

const RECENT = 'com.example/audit.recent';
const SAMPLE_STDIO = 'dist-sample/main-stdio.js';

/** What a client needs here, whichever SDK and transport it comes from. */
interface AuditClient {
  capabilities(): Record<string, any> | undefined;
  search(query: string): Promise<unknown>;
  recent(params: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

const modern = (client: ModernClient): AuditClient => ({
  capabilities: () => client.getServerCapabilities(),
  search: (query) => client.callTool({ name: 'search_products', arguments: { query } }),
  recent: (params) => client.request({ method: RECENT, params }, anyResultSchema),
  close: () => client.close(),
});

const legacy = (client: LegacyClient): AuditClient => ({
  capabilities: () => client.getServerCapabilities(),
  search: (query) => client.callTool({ name: 'search_products', arguments: { query } }),
  recent: (params) =>
    client.request({ method: RECENT, params }, ResultSchema.passthrough()) as Promise<
      Record<string, any>
    >,
  close: () => client.close(),
});

const DECLARED = { extensions: { [AUDIT_EXTENSION]: {} } };

/** What every client, on any transport, sees of the extension as the admin. */
async function expectAuditServed(client: AuditClient) {
  expect(client.capabilities()?.extensions?.[AUDIT_EXTENSION]).toEqual({ retainedCalls: 100 });
  await client.search('pan');
  const { calls } = await client.recent({ limit: 1 });
  expect(calls).toEqual([
    expect.objectContaining({ tool: 'search_products', outcome: 'success', caller: 'admin' }),
  ]);
  const invalid = await errorOf(client.recent({ limit: 500, outcome: 'maybe' }));
  expect(invalid.code).toBe(-32602);
  expect(invalid.message).toMatch(/limit must not be greater than 100/);
  expect(invalid.message).toMatch(/outcome must be one of "success", "error"/);
}

describe('the sample audit extension over HTTP, 2026-07-28', () => {
  let running: RunningApp;
  const clients: ModernClient[] = [];

  const connect = async (token: string, capabilities: object) => {
    const client = new ModernClient(
      { name: 'sample-extension-e2e', version: '1.0.0' },
      { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(running.url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return modern(client);
  };

  beforeAll(async () => {
    running = await startApp(AppModule);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await running?.close();
  });

  it('serves the admin: advertised, the latest calls, the params checked', async () => {
    await expectAuditServed(await connect(SAMPLE_DEFAULTS.adminToken, DECLARED));
  });

  it('refuses the reader by the scope the method needs', async () => {
    const reader = await connect(SAMPLE_DEFAULTS.readerToken, DECLARED);
    const error = await errorOf(reader.recent({}));
    expect(error.message).toMatch(/catalog\.write/);
  });

  it('refuses a client that did not declare the extension with -32021', async () => {
    const { status, message } = await postModern(
      running.app,
      '/mcp',
      RECENT,
      {},
      { Authorization: `Bearer ${SAMPLE_DEFAULTS.adminToken}` },
    );
    expect(status).toBe(400);
    expect(message.error.code).toBe(-32021);
    expect(message.error.data.requiredCapabilities.extensions).toEqual({ [AUDIT_EXTENSION]: {} });
  });
});

describe('the sample audit extension over stdio', () => {
  beforeAll(() => requireBuilt(SAMPLE_STDIO, 'dist/index.js'));

  const serverParameters = {
    command: process.execPath,
    args: [SAMPLE_STDIO],
    cwd: ROOT,
    env: { SAMPLE_TOKEN: SAMPLE_DEFAULTS.adminToken },
    stderr: 'pipe' as const,
  };

  it('is served on 2026-07-28 (v2 client)', async () => {
    const client = new ModernClient(
      { name: 'sample-extension-stdio-v2', version: '1.0.0' },
      { capabilities: DECLARED, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernStdioTransport(serverParameters));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await expectAuditServed(modern(client));
    } finally {
      await client.close();
    }
  });

  it('is served on 2025-11-25 (v1 client) to a client that declared it in initialize', async () => {
    const client = new LegacyClient(
      { name: 'sample-extension-stdio-v1', version: '1.0.0' },
      { capabilities: DECLARED as never },
    );
    await client.connect(new LegacyStdioTransport(serverParameters));
    try {
      await expectAuditServed(legacy(client));
    } finally {
      await client.close();
    }
  });

  it('refuses a 2025 client that did not declare it', async () => {
    const client = new LegacyClient({ name: 'sample-extension-stdio-v1', version: '1.0.0' });
    await client.connect(new LegacyStdioTransport(serverParameters));
    try {
      const error = await errorOf(legacy(client).recent({}));
      expect(error.code).toBe(-32021);
      expect(error.message).toContain(`needs the extension "${AUDIT_EXTENSION}"`);
    } finally {
      await client.close();
    }
  });
});
