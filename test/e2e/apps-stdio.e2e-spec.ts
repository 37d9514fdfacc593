/**
 * MCP Apps (`io.modelcontextprotocol/ui`) over stdio, on both revisions: the fixture of
 * apps.e2e-spec.ts (a file view, the product card, and a view made by a method, the
 * dashboard) served by `bootstrapStdio()` in a process of its own, spawned by the SDK clients
 * as hosts spawn stdio servers. One caller per process: a reader (no scope) and an admin
 * (`catalog.write`), their scopes given through bootstrapStdio's `request` option.
 */
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CARD_UI, UI_CAPABILITY, WRITE_SCOPE } from '../fixtures/apps.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { errorOf } from '../support/mcp-clients.js';
import { buildFixture } from '../support/fixture-build.js';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';

captureLogs();

const PRODUCT_CARD = 'ui://shop/product-card';
const STOCK_REPORT = 'ui://shop/stock-report';
const DASHBOARD = 'ui://shop/dashboard';

/** The compiled entry (test/fixtures/apps-stdio.app.ts), set in beforeAll. */
let entry: string;

beforeAll(() => {
  requireBuilt('dist/index.js', 'dist/transports/stdio/index.js');
  buildFixture('test/fixtures/apps.fixture.ts');
  entry = buildFixture('test/fixtures/apps-stdio.app.ts');
  // The fixture reads its views next to itself, as an app reads the files its build wrote.
  cpSync(join(ROOT, 'test/fixtures/apps'), join(ROOT, 'dist-test/test/fixtures/apps'), {
    recursive: true,
  });
});

/** One spawned server and the client connected to it. */
interface StdioAppsClient {
  readonly sdk: any;
  readonly extensions: () => Record<string, unknown> | undefined;
  /** What the server wrote to stderr so far (its logs). */
  readonly stderr: () => string;
  close(): Promise<void>;
}

const serverParameters = (scopes: string[]) => ({
  command: process.execPath,
  args: [entry],
  cwd: ROOT,
  env: { APPS_SCOPES: scopes.join(','), LC_ALL: 'C' },
  stderr: 'pipe' as const,
});

/** Collects a piped stderr, so a failing test can show what the server logged. */
function collect(stream: Readable | null): () => string {
  let text = '';
  stream?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return () => text;
}

const ERAS = [
  {
    era: '2025-11-25 (v1 client)',
    connect: async (scopes: string[]): Promise<StdioAppsClient> => {
      const sdk = new LegacyClient(
        { name: 'apps-stdio-v1', version: '1.0.0' },
        { capabilities: { extensions: UI_CAPABILITY } as never },
      );
      const transport = new LegacyStdioTransport(serverParameters(scopes));
      const stderr = collect(transport.stderr as Readable | null);
      await sdk.connect(transport);
      expect(sdk.getServerVersion()).toMatchObject({ name: 'shop' });
      return {
        sdk,
        extensions: () => sdk.getServerCapabilities()?.extensions as never,
        stderr,
        close: () => sdk.close(),
      };
    },
  },
  {
    era: '2026-07-28 (v2 client)',
    connect: async (scopes: string[]): Promise<StdioAppsClient> => {
      const sdk = new ModernClient(
        { name: 'apps-stdio-v2', version: '1.0.0' },
        {
          capabilities: { extensions: UI_CAPABILITY },
          versionNegotiation: { mode: { pin: '2026-07-28' } },
        },
      );
      const transport = new ModernStdioTransport(serverParameters(scopes));
      const stderr = collect(transport.stderr as Readable | null);
      await sdk.connect(transport);
      expect(sdk.getProtocolEra()).toBe('modern');
      return {
        sdk,
        extensions: () => sdk.getServerCapabilities()?.extensions as never,
        stderr,
        close: () => sdk.close(),
      };
    },
  },
] as const;

const byName = (tools: Array<Record<string, any>>, name: string) =>
  tools.find((tool) => tool.name === name);

/** How many times the dashboard was made, as its HTML says (stamped by the interceptor). */
const readsOf = (html: string) => {
  const match = /<p>KIT-1: \d+<\/p><p>read (\d+) by resource<\/p><!-- stamped -->/.exec(html);
  expect(match, html).not.toBeNull();
  return Number(match![1]);
};

describe.each(ERAS)('MCP Apps over stdio, $era', ({ connect }) => {
  let reader: StdioAppsClient;
  let admin: StdioAppsClient;

  beforeAll(async () => {
    [reader, admin] = await Promise.all([connect([]), connect([WRITE_SCOPE])]);
  });
  afterAll(async () => {
    // Closing a client ends its server (stdin closes, then the SDK kills it if it lingers).
    await Promise.all([reader?.close(), admin?.close()]);
  });

  it('advertises the extension with the MIME type of its views', () => {
    expect(reader.extensions()).toEqual(
      expect.objectContaining({ [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } }),
    );
  });

  it('lists the view URI of each app tool under both keys', async () => {
    const { tools } = await admin.sdk.listTools();
    expect(tools.map((tool: any) => tool.name).toSorted()).toEqual([
      'get_product',
      'restock',
      'show_dashboard',
      'stock_report',
    ]);
    expect(byName(tools, 'get_product')!._meta).toEqual({
      'com.example/origin': 'fixture',
      ui: { legacyHint: 'kept', resourceUri: PRODUCT_CARD },
      [RESOURCE_URI_META_KEY]: PRODUCT_CARD,
    });
    expect(byName(tools, 'restock')!._meta).toEqual({
      ui: { resourceUri: PRODUCT_CARD, visibility: ['app'] },
      [RESOURCE_URI_META_KEY]: PRODUCT_CARD,
    });
    expect(byName(tools, 'show_dashboard')!._meta).toEqual({
      ui: { resourceUri: DASHBOARD },
      [RESOURCE_URI_META_KEY]: DASHBOARD,
    });
    expect(byName(tools, 'stock_report')!._meta.ui).toEqual({ resourceUri: STOCK_REPORT });
  });

  it("lists to the reader neither the app-only tool nor the admin's, which its scope refuses", async () => {
    const { tools } = await reader.sdk.listTools();
    expect(tools.map((tool: any) => tool.name).toSorted()).toEqual([
      'get_product',
      'show_dashboard',
    ]);
  });

  it('lists the views with their MIME type and _meta.ui', async () => {
    const { resources } = await admin.sdk.listResources();
    expect(resources.map((resource: any) => resource.uri).toSorted()).toEqual([
      DASHBOARD,
      PRODUCT_CARD,
      STOCK_REPORT,
    ]);
    expect(resources.find((resource: any) => resource.uri === PRODUCT_CARD)).toMatchObject({
      name: 'product-card',
      title: 'Product card',
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: PRODUCT_CARD_UI },
    });
  });

  it('reads the file view with its HTML, MIME type and _meta.ui', async () => {
    const { contents } = await reader.sdk.readResource({ uri: PRODUCT_CARD });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({
      uri: PRODUCT_CARD,
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: PRODUCT_CARD_UI },
    });
    expect(contents[0].text).toContain('<article id="product-card">');
  });

  it('reads the method view, made per read through DI and the interceptors', async () => {
    const first = await reader.sdk.readResource({ uri: DASHBOARD });
    const second = await reader.sdk.readResource({ uri: DASHBOARD });
    expect(first.contents).toHaveLength(1);
    expect(first.contents[0]).toMatchObject({
      uri: DASHBOARD,
      mimeType: RESOURCE_MIME_TYPE,
      _meta: {
        ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false },
      },
    });
    expect(readsOf(second.contents[0].text)).toBe(readsOf(first.contents[0].text) + 1);
  });

  it('hides the admin-only view from the reader as an unknown resource, and serves it to the admin', async () => {
    const { resources } = await reader.sdk.listResources();
    expect(resources.map((resource: any) => resource.uri).toSorted()).toEqual([
      DASHBOARD,
      PRODUCT_CARD,
    ]);
    const hidden = await errorOf(reader.sdk.readResource({ uri: STOCK_REPORT }));
    const unknown = await errorOf(reader.sdk.readResource({ uri: 'ui://shop/no-such-view' }));
    expect(hidden.code).toBe(unknown.code);
    expect(hidden.message).toBe(unknown.message.replace('ui://shop/no-such-view', STOCK_REPORT));

    const { contents } = await admin.sdk.readResource({ uri: STOCK_REPORT });
    expect(contents[0]).toMatchObject({ uri: STOCK_REPORT, mimeType: RESOURCE_MIME_TYPE });
    expect(contents[0].text).toContain('stock-report');
  });

  it('guards the app-only tool: the reader is refused, the admin validated and served', async () => {
    const sku = 'KIT-STDIO';
    // Each process keeps its own stock.
    const stockOf = async (client: StdioAppsClient) =>
      (await client.sdk.callTool({ name: 'get_product', arguments: { sku } })).structuredContent
        .stock;

    const refused = await reader.sdk.callTool({ name: 'restock', arguments: { sku, quantity: 2 } });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/Missing scope\(s\): catalog\.write/);
    expect(await stockOf(reader)).toBe(0);

    const invalid = await admin.sdk.callTool({ name: 'restock', arguments: { sku, quantity: 0 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toContain('quantity');
    expect(await stockOf(admin)).toBe(0);

    const done = await admin.sdk.callTool({ name: 'restock', arguments: { sku, quantity: 2 } });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toEqual({ sku, stock: 2 });
    expect(await stockOf(admin)).toBe(2);
  });

  it('logs no error on stderr', () => {
    for (const client of [reader, admin]) {
      expect(client.stderr()).not.toMatch(/\bERROR\b/);
    }
  });
});
