import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../sample/catalog/product.entity.js';
import { SAMPLE_DEFAULTS } from '../../../sample/sample.config.js';
import { connectModernClient, type TestClient } from '../../support/mcp-clients.js';
import { launchChromium } from '../support/chromium.js';
import { recordCalls, toolCalls, type SentCall } from './support/explorer-calls.js';
import {
  expectAccessible,
  openExplorer,
  openTool,
  progressOf,
  screenshot,
  tabTo,
  useToken,
  waitForToolCount,
  type ExplorerPage,
  poll,
} from './support/explorer-page.js';
import { startExplorerSample, type ExplorerSample } from './support/explorer-sample.js';

/** Every tool of the sample: what the admin token sees. */
const ADMIN_TOOLS = 9;

/**
 * What the explorer does while and after a call, on the built sample as its admin (issue 30):
 * reindex_catalog's progress and its cancellation (as a plain call and as a task),
 * delete_product's question and the answer that reaches the tool, get_product's app view.
 */
describe.sequential('the sample explorer, during and after a call', () => {
  let browser: Browser;
  let sample: ExplorerSample;
  /** The runs of reindex_catalog the sample logged as ended. */
  const ended = () => sample.instance.output().match(/Re-indexed \d+ products/g) ?? [];
  let admin: ExplorerPage;
  let page: Page;
  let calls: SentCall[];
  /** The same admin, through the SDK client: what the catalog holds, outside the page. */
  let client: TestClient;
  const result = () => page.getByRole('region', { name: 'Result' });

  beforeAll(async () => {
    [browser, sample] = await Promise.all([
      launchChromium(),
      startExplorerSample('explorer-interactions'),
    ]);
    [admin, client] = await Promise.all([
      // The anonymous caller's lists are answered 401 until the token is given.
      openExplorer(browser, sample.explorerUrl, { expectedErrors: [/status of 401/] }),
      connectModernClient(sample.instance.url, SAMPLE_DEFAULTS.adminToken),
    ]);
    page = admin.page;
    calls = recordCalls(page);
    await useToken(page, SAMPLE_DEFAULTS.adminToken);
    await waitForToolCount(page, ADMIN_TOOLS);
  });

  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await client?.close();
    await sample?.stop();
  });

  /** A product of the catalog as it is now, `index` in search order. */
  async function product(index: number): Promise<Product> {
    const { structuredContent } = await client.callTool('search_products', { limit: 50 });
    return structuredContent.items[index];
  }

  it('shows the progress of reindex_catalog, and cancels it', async () => {
    await openTool(page, 'reindex_catalog');
    await page.getByRole('button', { name: 'Call' }).click();
    const progress = page.getByRole('progressbar', { name: 'Progress' });
    // The first steps arrive: "Indexed <SKU>", n of 36.
    await poll(async () => (await progressOf(progress)).now ?? 0).toBeGreaterThan(0);
    expect((await progressOf(progress)).max).toBe(36);
    const notifications = page.getByRole('list', { name: 'Notifications' });
    await poll(() => notifications.textContent()).toMatch(/Indexed [A-Z]{3}-\d{4}/);
    // Cancelled at once: the run takes some 4 s, which a slow machine may not leave for more.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'detached' });
    await progress.waitFor({ state: 'detached' });
    expect(await result().textContent()).toMatch(/cancel/i);
    // Cancelled before its end: no report of the 36 products indexed.
    expect(await result().textContent()).not.toMatch(/"?products"?\s*:?\s*36/);
    const call = calls.findLast((sent) => sent.method === 'tools/call')!;
    expect(call.params.name).toBe('reindex_catalog');
    // The page asked for progress: a progress token in the request's _meta.
    expect(call.params._meta?.progressToken).toBeDefined();
  });

  it('runs reindex_catalog as a task: its status, its progress as the status message, its cancellation', async () => {
    // Still on reindex_catalog, from the test above.
    const asTask = page.getByRole('checkbox', { name: 'Run as a task' });
    await asTask.check();
    await page.getByRole('button', { name: 'Call' }).click();
    const task = page.getByRole('region', { name: 'Task' });
    await poll(() => task.textContent()).toMatch(/working/);
    await poll(() => task.textContent()).toMatch(/Indexed [A-Z]{3}-\d{4} \(\d+\/36\)/);
    await task.getByRole('button', { name: 'Cancel task' }).click();
    await poll(() => task.textContent()).toMatch(/cancelled/);
    expect(await task.getByRole('button', { name: 'Cancel task' }).count()).toBe(0);
    const methods = calls.map((call) => call.method);
    expect(methods).toEqual(expect.arrayContaining(['tasks/get', 'tasks/cancel']));
  });

  it('shows a run of reindex_catalog to its end; the cancelled runs stopped on the server', async () => {
    await page.getByRole('checkbox', { name: 'Run as a task' }).uncheck();
    await page.getByRole('button', { name: 'Call' }).click();
    const progress = page.getByRole('progressbar', { name: 'Progress' });
    await poll(async () => (await progressOf(progress)).now ?? 0).toBeGreaterThan(0);
    // Taken while it runs, if the machine is quick enough; the result screen otherwise.
    await expectAccessible(page, 'progress');
    await screenshot(page, 'progress', page.getByRole('heading', { name: 'Call', exact: true }));
    const structured = page.getByRole('region', { name: 'Structured content' });
    await structured.waitFor();
    expect(await structured.textContent()).toMatch(/products\D*36/);
    // The sample logs each run that ends. The two cancelled above started earlier and would
    // have ended before this one: only this one did.
    await poll(() => ended().length).toBeGreaterThan(0);
    expect(ended()).toEqual(['Re-indexed 36 products']);
  });

  it('asks before delete_product deletes, and the answer reaches the tool', async () => {
    const [declined, deleted] = [await product(0), await product(1)];
    await openTool(page, 'delete_product');
    const question = (shown: Product) =>
      page.getByRole('dialog', {
        name: `Delete ${shown.sku} (${shown.name}) from the catalog? This cannot be undone.`,
      });

    // Declined: the tool says it did not delete, and the product is still there.
    await page.getByLabel('id', { exact: true }).fill(declined.id);
    await page.getByRole('button', { name: 'Call' }).click();
    await question(declined).waitFor();
    // A modal dialog: the keyboard stays in it, and reaches its buttons.
    await tabTo(page, question(declined).getByRole('button', { name: 'Decline' }));
    await page.keyboard.press('Enter');
    await question(declined).waitFor({ state: 'detached' });
    await poll(() => result().textContent()).toContain(
      `Not deleted: the user did not confirm the deletion of ${declined.sku}.`,
    );
    expect((await client.callTool('get_product', { id: declined.id })).isError).toBeFalsy();

    // Accepted with the box ticked: the tool deletes and returns the product.
    await page.getByLabel('id', { exact: true }).fill(deleted.id);
    await page.getByRole('button', { name: 'Call' }).click();
    const dialog = question(deleted);
    await dialog.waitFor();
    // The form of the requested schema: one boolean, required.
    const confirm = dialog.getByRole('checkbox', { name: /Delete it|confirm/ });
    expect(await confirm.isChecked()).toBe(false);
    await expectAccessible(page, 'question dialog');
    await screenshot(page, 'question');
    await confirm.check();
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => result().textContent()).toContain(deleted.sku);
    expect(await result().textContent()).not.toContain('Not deleted');
    const gone = await client.callTool('get_product', { id: deleted.id });
    expect(gone.isError).toBe(true);
    // The answer went back to the tool with its call: the accepted form in the retried request.
    const retried = calls.findLast((sent) => sent.method === 'tools/call')!;
    expect(retried.params.name).toBe('delete_product');
    expect(JSON.stringify(retried.params)).toContain('"confirm":true');
  });

  it("renders get_product's app view in a sandboxed frame, whose tool calls reach the server", async () => {
    const shown = await product(2);
    await openTool(page, 'get_product');
    await page.getByLabel('id', { exact: true }).fill(shown.id);
    await page.getByRole('button', { name: 'Call' }).click();
    const frame = page.getByTitle('App view: get_product');
    await frame.waitFor();
    // Scripts only: no same origin, so the view cannot reach the page or its token.
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const view = frame.contentFrame();
    await view.getByRole('heading', { name: shown.name }).waitFor();
    await expectAccessible(page, 'app view');
    await screenshot(page, 'app-view', result());

    // Its "Restock 10" button calls restock_product through the page, as the admin.
    const before = toolCalls(calls).length;
    await view.getByRole('button', { name: 'Restock 10' }).click();
    await view.getByText(`${shown.stock + 10} in stock`).waitFor();
    expect(toolCalls(calls).slice(before)).toEqual([
      { name: 'restock_product', arguments: { id: shown.id, quantity: 10 } },
    ]);
    expect((await client.callTool('get_product', { id: shown.id })).structuredContent.stock).toBe(
      shown.stock + 10,
    );
    expect(admin.errors).toEqual([]);
    expect(admin.offOrigin).toEqual([]);
  });
});
