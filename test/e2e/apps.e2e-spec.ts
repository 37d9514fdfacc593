/**
 * MCP Apps (`io.modelcontextprotocol/ui`) over HTTP, driven by the MCP SDK clients on both
 * revisions and both platforms: the extension advertised with its MIME type, each tool's
 * `_meta.ui.resourceUri` and flat `ui/resourceUri`, the views as `ui://` resources with
 * `_meta.ui` on the list entry and the read item, a view listed and readable only by a
 * caller who sees a tool that shows it, app-only tools guarded like any tool, a view made by
 * a method through DI and the pipeline, and a client without the extension still served.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appsAppModule,
  PRODUCT_CARD_UI,
  UI_CAPABILITY,
  WRITE_SCOPE,
} from '../fixtures/apps.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { errorOf } from '../support/mcp-clients.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';

const logs = captureLogs();

const PRODUCT_CARD = 'ui://shop/product-card';
const STOCK_REPORT = 'ui://shop/stock-report';
const DASHBOARD = 'ui://shop/dashboard';

interface Caller {
  /** Scopes sent in `x-scopes`; none: a reader. */
  readonly scopes?: string[];
  /** Whether the client declares the UI extension. @default true */
  readonly ui?: boolean;
}

/** What the tests need of either SDK client. */
interface AppsClient {
  readonly sdk: ModernClient | LegacyClient;
  readonly extensions: () => Record<string, unknown> | undefined;
  close(): Promise<void>;
}

const headersOf = ({ scopes }: Caller): Record<string, string> =>
  scopes ? { 'x-scopes': scopes.join(',') } : {};
const capabilitiesOf = ({ ui = true }: Caller) => ({ extensions: ui ? UI_CAPABILITY : {} });

const ERAS = [
  {
    era: '2025-11-25 (v1 client)',
    connect: async (url: URL, caller: Caller): Promise<AppsClient> => {
      const sdk = new LegacyClient(
        { name: 'apps-e2e-v1', version: '1.0.0' },
        { capabilities: capabilitiesOf(caller) as never },
      );
      await sdk.connect(new LegacyTransport(url, { requestInit: { headers: headersOf(caller) } }));
      return {
        sdk,
        extensions: () => sdk.getServerCapabilities()?.extensions as never,
        close: () => sdk.close(),
      };
    },
  },
  {
    era: '2026-07-28 (v2 client)',
    connect: async (url: URL, caller: Caller): Promise<AppsClient> => {
      const sdk = new ModernClient(
        { name: 'apps-e2e-v2', version: '1.0.0' },
        {
          capabilities: capabilitiesOf(caller),
          versionNegotiation: { mode: { pin: '2026-07-28' } },
        },
      );
      await sdk.connect(new ModernTransport(url, { requestInit: { headers: headersOf(caller) } }));
      return {
        sdk,
        extensions: () => sdk.getServerCapabilities()?.extensions as never,
        close: () => sdk.close(),
      };
    },
  },
] as const;

/** How many times the dashboard was made, as its HTML says. */
const readsOf = (html: string) => Number(/read (\d+)/.exec(html)![1]);

describe.each(ADAPTERS)('MCP Apps on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(appsAppModule(), { adapter, logger: logs });
  });
  afterAll(() => running?.close());

  describe.each(ERAS)('$era', ({ connect }) => {
    const opened: AppsClient[] = [];
    const client = async (caller: Caller = {}) => {
      const connected = await connect(running.url, caller);
      opened.push(connected);
      return connected.sdk as any;
    };
    afterAll(() => Promise.all(opened.map((connected) => connected.close())));

    it('advertises the extension with the MIME type of its views', async () => {
      await client();
      expect(opened.at(-1)!.extensions()).toMatchObject({
        [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] },
      });
    });

    it("lists the view URI under both keys, merged into the tool's own _meta", async () => {
      const { tools } = await (await client()).listTools();
      const getProduct = tools.find((tool: any) => tool.name === 'get_product');
      expect(getProduct._meta).toEqual({
        'com.example/origin': 'fixture',
        ui: { legacyHint: 'kept', resourceUri: PRODUCT_CARD },
        [RESOURCE_URI_META_KEY]: PRODUCT_CARD,
      });
      const dashboard = tools.find((tool: any) => tool.name === 'show_dashboard');
      expect(dashboard._meta.ui).toEqual({ resourceUri: DASHBOARD });
    });

    it('lists an app-only tool with its visibility to a caller its scope lets through, and only to them', async () => {
      const admin = await (await client({ scopes: [WRITE_SCOPE] })).listTools();
      const restock = admin.tools.find((tool: any) => tool.name === 'restock');
      expect(restock._meta.ui).toEqual({ resourceUri: PRODUCT_CARD, visibility: ['app'] });
      expect(restock._meta[RESOURCE_URI_META_KEY]).toBe(PRODUCT_CARD);
      const reader = await (await client()).listTools();
      expect(reader.tools.map((tool: any) => tool.name).toSorted()).toEqual([
        'get_product',
        'show_dashboard',
      ]);
    });

    it('lists the same tools whether or not the caller declares the extension', async () => {
      const withUi = await (await client({ scopes: [WRITE_SCOPE] })).listTools();
      const without = await (await client({ scopes: [WRITE_SCOPE], ui: false })).listTools();
      expect(without.tools).toEqual(withUi.tools);
    });

    it('lists the views a caller may see, with their MIME type and _meta.ui', async () => {
      const { resources } = await (await client()).listResources();
      expect(resources.map((resource: any) => resource.uri).toSorted()).toEqual([
        DASHBOARD,
        PRODUCT_CARD,
      ]);
      const card = resources.find((resource: any) => resource.uri === PRODUCT_CARD);
      expect(card).toMatchObject({
        name: 'product-card',
        title: 'Product card',
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: PRODUCT_CARD_UI },
      });
    });

    it('reads a view with its HTML, MIME type and _meta.ui on the content item', async () => {
      const { contents } = await (await client()).readResource({ uri: PRODUCT_CARD });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({
        uri: PRODUCT_CARD,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: PRODUCT_CARD_UI },
      });
      expect(contents[0].text).toContain('<article id="product-card">');
    });

    it('hides a view from a caller who may see no tool that shows it, as if it did not exist', async () => {
      const reader = await client();
      const { resources } = await reader.listResources();
      expect(resources.map((resource: any) => resource.uri)).not.toContain(STOCK_REPORT);
      const hidden = await errorOf(reader.readResource({ uri: STOCK_REPORT }));
      const unknown = await errorOf(reader.readResource({ uri: 'ui://shop/no-such-view' }));
      expect(hidden.code).toBe(unknown.code);
      expect(hidden.message).toBe(unknown.message.replace('ui://shop/no-such-view', STOCK_REPORT));
    });

    it('serves that view to a caller who sees its tool, without _meta.ui when it declares nothing', async () => {
      const admin = await client({ scopes: [WRITE_SCOPE] });
      const { resources } = await admin.listResources();
      const report = resources.find((resource: any) => resource.uri === STOCK_REPORT);
      expect(report).toBeDefined();
      expect(report._meta).toBeUndefined();
      const { contents } = await admin.readResource({ uri: STOCK_REPORT });
      expect(contents[0].text).toContain('stock-report');
      // No CSP declared: no domain at all, the host's most restrictive default.
      expect(contents[0]._meta).toBeUndefined();
    });

    it('refuses the app-only tool to a caller whose scope refuses it, and validates its arguments', async () => {
      const sku = `SKU-${randomUUID()}`;
      const reader = await client();
      const stockOf = async () =>
        (await reader.callTool({ name: 'get_product', arguments: { sku } })).structuredContent
          .stock;
      const refused = await reader.callTool({ name: 'restock', arguments: { sku, quantity: 2 } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/forbidden|scope/i);
      expect(await stockOf()).toBe(0);
      const admin = await client({ scopes: [WRITE_SCOPE] });
      const invalid = await admin.callTool({ name: 'restock', arguments: { sku, quantity: 0 } });
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toContain('quantity');
      expect(await stockOf()).toBe(0);
      const done = await admin.callTool({ name: 'restock', arguments: { sku, quantity: 2 } });
      expect(done.isError).toBeFalsy();
      expect(done.structuredContent).toEqual({ sku, stock: 2 });
      expect(await stockOf()).toBe(2);
    });

    it('makes a decorated view per read, through DI and the interceptors', async () => {
      const reader = await client();
      const first = await reader.readResource({ uri: DASHBOARD });
      const second = await reader.readResource({ uri: DASHBOARD });
      const [item] = first.contents;
      expect(item).toMatchObject({
        uri: DASHBOARD,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: {
          ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false },
        },
      });
      expect(item.text).toMatch(/<p>KIT-1: \d+<\/p><p>read (\d+) by resource<\/p><!-- stamped -->/);
      expect(readsOf(second.contents[0].text)).toBe(readsOf(item.text) + 1);
    });

    it('gives a client without the extension the text and the structured content', async () => {
      const plain = await client({ ui: false });
      const result = await plain.callTool({ name: 'get_product', arguments: { sku: 'KIT-1' } });
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^Kettle \(KIT-1\): 30 EUR, \d+ in stock$/) },
      ]);
      expect(result.structuredContent).toMatchObject({ sku: 'KIT-1', name: 'Kettle', price: 30 });
    });
  });
});
