import type { INestApplication } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import type { Product } from '../../sample/catalog/product.entity.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { singleFileHtml } from '../../scripts/single-file-html.mjs';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { connectModernClient, type TestClient } from '../support/mcp-clients.js';
import type { Rendered, RenderRequest } from './host/host.js';
import { launchChromium } from './support/chromium.js';

/** Where the test host page is served, beside the sample's MCP endpoint (same origin). */
const HOST_PATH = '/test-host';
const HOST_TEMPLATE = fileURLToPath(new URL('host/host.html', import.meta.url));
/** Written only with UPDATE_SCREENSHOTS=1, so that a test run leaves the tree as it was. */
const SCREENSHOT = fileURLToPath(new URL('../../docs/images/product-card.png', import.meta.url));
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
const RESTOCK_QUANTITY = 10;
const eur = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });
const field = (card: FrameLocator, name: string) =>
  card.locator(`[data-field="${name}"]`).textContent();
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/**
 * The sample's product card (sample/views/product-card/) in headless Chromium, rendered by a
 * host page (host/host.ts) as a chat client renders an MCP Apps view: its MCP client calls the
 * running sample with a user's token, the view runs in a sandboxed iframe under the CSP of its
 * `_meta.ui.csp`, and its tool calls go through ext-apps' AppBridge to that client.
 */
describe('the product card in a browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let admin: TestClient;
  let reader: TestClient;
  /** A server on another origin, which no view declared: what the CSP must keep the view from. */
  let elsewhere: Server;
  let elsewhereUrl: string;
  let elsewhereRequests = 0;
  const pages: Page[] = [];

  beforeAll(async () => {
    // First: without Chromium nothing else is worth starting, and the error says what to install.
    browser = await launchChromium();
    const hostHtml = await singleFileHtml(HOST_TEMPLATE);
    running = await startApp(AppModule, {
      configure: (app: INestApplication) =>
        app.getHttpAdapter().get(HOST_PATH, (_request: unknown, response: ServerResponse) => {
          response.setHeader('Content-Type', 'text/html; charset=utf-8');
          response.end(hostHtml);
        }),
    });
    admin = await connectModernClient(running.url, SAMPLE_DEFAULTS.adminToken);
    reader = await connectModernClient(running.url, SAMPLE_DEFAULTS.readerToken);
    elsewhere = createServer((_request, response) => {
      elsewhereRequests++;
      // Any origin may read it: only the view's CSP can make a fetch from the view fail.
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end('reached');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/probe`;
  });

  afterAll(async () => {
    await browser?.close();
    await admin?.close();
    await reader?.close();
    await new Promise((resolve) => (elsewhere ? elsewhere.close(resolve) : resolve(undefined)));
    await running?.close();
  });

  /** A product of the seeded catalog, as the catalog has it now. */
  async function product(index: number): Promise<Product> {
    const { structuredContent } = await admin.callTool('search_products', { limit: 50 });
    const { id } = structuredContent.items[index];
    return (await admin.callTool('get_product', { id })).structuredContent as Product;
  }

  /** Opens the host page, renders get_product's view of `id` as the token's user. */
  async function render(token: string, revision: RenderRequest['revision'], id: string) {
    const page = await browser.newPage({ viewport: { width: 480, height: 320 } });
    pages.push(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // The host page's own requests answered with an error are not the view's: the favicon
      // (404) and the optional GET stream a 2025 client opens (405).
      const own = message.location().url.startsWith(running.url.origin);
      if (message.type() === 'error' && !own) errors.push(message.text());
    });
    const toolCalls: string[] = [];
    page.on('request', (request) => {
      const body = request.method() === 'POST' ? request.postDataJSON() : undefined;
      if (body?.method === 'tools/call') toolCalls.push(body.params.name);
    });
    await page.goto(new URL(HOST_PATH, running.url).href);
    const request: RenderRequest = { token, revision, tool: 'get_product', arguments: { id } };
    const rendered: Rendered = await page.evaluate((r) => window.renderToolView(r), request);
    const card = page.frameLocator('iframe');
    await card.locator('.card[aria-busy="false"]').waitFor();
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame()) as Frame;
    return { page, card, frame, rendered, errors, toolCalls };
  }

  afterAll(() => Promise.all(pages.map((page) => page.close())));

  describe.each(REVISIONS)('on %s', (revision) => {
    it('renders the card from structuredContent, under a CSP with no network', async () => {
      const shown = await product(0);
      const { page, card, rendered, errors } = await render(
        SAMPLE_DEFAULTS.readerToken,
        revision,
        shown.id,
      );
      expect(rendered).toMatchObject({
        resourceUri: 'ui://catalog/product-card',
        mimeType: 'text/html;profile=mcp-app',
      });
      expect(rendered.csp).toContain("connect-src 'none'");
      expect(await field(card, 'name')).toBe(shown.name);
      expect(await field(card, 'price')).toBe(eur.format(shown.price));
      expect(await field(card, 'stock')).toBe(`${shown.stock} in stock`);
      expect(await card.getByRole('alert').isHidden()).toBe(true);
      // The bundle runs under the CSP without a violation (no eval, no fetch, no external file).
      expect(errors).toEqual([]);
      if (process.env.UPDATE_SCREENSHOTS === '1' && revision === REVISIONS[0]) {
        await page.locator('iframe').screenshot({ path: SCREENSHOT });
      }
    });

    it('restocks as the admin: the view calls the app-only tool and shows the new stock', async () => {
      const before = await product(1);
      const { card, toolCalls } = await render(SAMPLE_DEFAULTS.adminToken, revision, before.id);
      const restocked = `${before.stock + RESTOCK_QUANTITY} in stock`;
      await card.getByRole('button', { name: `Restock ${RESTOCK_QUANTITY}` }).click();
      await card.locator('[data-field="stock"]', { hasText: restocked }).waitFor();
      expect(await card.getByRole('alert').isHidden()).toBe(true);
      // The click went through the bridge to the host's client, and the catalog changed.
      expect(toolCalls).toEqual(['get_product', 'restock_product']);
      expect((await product(1)).stock).toBe(before.stock + RESTOCK_QUANTITY);
    });

    it('refuses the reader, in the view and over MCP, and changes nothing', async () => {
      const before = await product(2);
      const { card, toolCalls } = await render(SAMPLE_DEFAULTS.readerToken, revision, before.id);
      await card.getByRole('button', { name: `Restock ${RESTOCK_QUANTITY}` }).click();
      const alert = card.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Missing scope(s): catalog.write');
      expect(toolCalls).toEqual(['get_product', 'restock_product']);
      expect(await field(card, 'stock')).toBe(`${before.stock} in stock`);

      // Hiding the tool from the model is no authorization: called directly, it is refused too.
      const direct = await reader.callTool('restock_product', {
        id: before.id,
        quantity: RESTOCK_QUANTITY,
      });
      expect(direct.isError).toBe(true);
      expect(textOf(direct)).toBe(
        'Forbidden (403): Missing scope(s): catalog.write; the caller has catalog.read.',
      );
      expect((await product(2)).stock).toBe(before.stock);
    });

    it('blocks a fetch from the view to a domain it did not declare', async () => {
      const { page, frame } = await render(
        SAMPLE_DEFAULTS.readerToken,
        revision,
        (await product(0)).id,
      );
      const requestsBefore = elsewhereRequests;
      const outcome = await frame.evaluate(async (url) => {
        // The violation event says which directive blocked what; a timeout keeps a missing
        // event from hanging the test.
        const violation = new Promise<string>((resolve) => {
          document.addEventListener(
            'securitypolicyviolation',
            (event) => resolve(`${event.effectiveDirective} ${event.blockedURI}`),
            { once: true },
          );
          setTimeout(() => resolve('no violation'), 5000);
        });
        const fetched = await fetch(url).then(
          (response) => `status ${response.status}`,
          (error: unknown) => `rejected: ${String(error)}`,
        );
        return { fetched, violation: await violation };
      }, elsewhereUrl);
      expect(outcome.fetched).toMatch(/^rejected: TypeError/);
      expect(outcome.violation).toBe(`connect-src ${elsewhereUrl}`);
      expect(elsewhereRequests).toBe(requestsBefore);

      // The same fetch from the host page, which has no such CSP, reaches the server: the
      // view's policy made the difference, not the network.
      const status = await page.evaluate((url) => fetch(url).then((r) => r.status), elsewhereUrl);
      expect(status).toBe(200);
      expect(elsewhereRequests).toBe(requestsBefore + 1);
    });
  });
});
