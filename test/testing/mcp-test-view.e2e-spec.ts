/**
 * `McpTestClient#readView()` and `assertView()`: a tool's MCP Apps view read as a host reads
 * it, over HTTP and in memory, on both revisions.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { McpTestClient, type McpTestProtocolVersion } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsAppModule, PRODUCT_CARD_UI, WRITE_SCOPE } from '../fixtures/apps.fixture.js';
import { captureLogs } from '../support/captured-logs.js';

const logs = captureLogs();

const ERAS: McpTestProtocolVersion[] = ['2026-07-28', '2025-11-25'];
const ADMIN = { 'x-scopes': WRITE_SCOPE };

describe.each([
  { mode: 'over HTTP', http: undefined },
  { mode: 'in memory', http: false as const },
])('McpTestClient#readView() $mode', ({ http }) => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [appsAppModule(http === false ? { http } : {})],
    })
      .setLogger(logs)
      .compile();
    app = await moduleRef.createNestApplication({ logger: logs }).init();
  });
  afterAll(() => app.close());

  describe.each(ERAS)('protocol revision %s', (protocolVersion) => {
    let mcp: McpTestClient;

    beforeAll(async () => {
      mcp = await McpTestClient.connect(app, { protocolVersion });
    });
    afterAll(() => mcp.close());

    it("reads a tool's view: URI, MIME type, HTML and _meta.ui as read and as listed", async () => {
      const answer = await mcp
        .readView('get_product')
        .assertOk()
        .assertView({
          tool: 'get_product',
          uri: 'ui://shop/product-card',
          mimeType: RESOURCE_MIME_TYPE,
          meta: PRODUCT_CARD_UI,
          listedMeta: PRODUCT_CARD_UI,
          visibility: ['model', 'app'],
        })
        .assertSee('<article id="product-card">');
      expect(answer.result?.html).toMatch(/^<!doctype html>/);
    });

    it('reads the visibility of an app-only tool, for a caller who sees it', async () => {
      await mcp
        .as(ADMIN)
        .readView('restock')
        .assertView({ uri: 'ui://shop/product-card', visibility: ['app'] })
        .assertView((view) => view.meta.csp.connectDomains[0] === 'https://api.example.com');
    });

    it('reads a view made by a method, with the meta it declares', async () => {
      await mcp
        .readView('show_dashboard')
        .assertView({ meta: { csp: { connectDomains: ['https://api.example.com'] } } })
        .assertView({ meta: { prefersBorder: false } })
        .assertSee('<!-- stamped -->');
    });

    it('fails an assertView() that does not hold, saying where the view differs', async () => {
      await expect(
        mcp.readView('get_product').assertView({ meta: { csp: { connectDomains: [] } } }),
      ).rejects.toThrow(
        /readView\("get_product"\)\.assertView\(.*\) failed: the view\.meta\.csp\.connectDomains has 1 item\(s\), not 0/,
      );
    });

    it('throws for a tool the caller does not see, or one without a view', async () => {
      await expect(mcp.readView('stock_report')).rejects.toThrow(
        'readView("stock_report"): tools/list does not name "stock_report" for this caller',
      );
      await expect(mcp.as(ADMIN).readView('stock_report')).resolves.toMatchObject({
        result: { uri: 'ui://shop/stock-report', meta: {} },
      });
    });
  });
});
