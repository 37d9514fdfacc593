import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DEFAULTS } from '../../../sample/sample.config.js';
import { launchChromium } from '../support/chromium.js';
import {
  messageOfBody,
  recordCalls,
  runInShell,
  toolCalls,
  type SentCall,
} from './support/explorer-calls.js';
import {
  entry,
  expectEntries,
  expectAccessible,
  openExplorer,
  openTool,
  screenshot,
  tabTo,
  unreachableByKeyboard,
  useToken,
  waitForToolCount,
  type ExplorerPage,
  type OpenOptions,
  poll,
} from './support/explorer-page.js';
import {
  EXPLORER_PATH,
  startExplorerSample,
  type ExplorerSample,
} from './support/explorer-sample.js';
import { gzippedSize, total, WEIGHT_BUDGET_BYTES } from './support/explorer-wire.js';

const READ_TOOLS = ['catalog_get', 'get_product', 'search_products'];
const WRITE_TOOLS = [
  'catalog_delete',
  'catalog_update',
  'create_product',
  'delete_product',
  'reindex_catalog',
  'restock_product',
];

/** All the page shows, as a user reads it. */
const pageText = (page: Page) => page.locator('body').innerText();
const result = (page: Page) => page.getByRole('region', { name: 'Result' });

/**
 * The explorer of the built sample in headless Chromium (issue 30), as the reader and the
 * admin of its two static tokens: the lists each sees, a tool's form and its refusals, a
 * call's result and the curl that gets the same, the German texts, a keyboard-only call.
 */
describe.sequential('the sample explorer, as the reader and the admin', () => {
  let browser: Browser;
  let sample: ExplorerSample;
  /** The reader's tab, reused from test to test as a user would. */
  let reader: ExplorerPage;
  let calls: SentCall[];
  const opened: ExplorerPage[] = [];
  /**
   * A new tab on the explorer. Until a token is given the page is the anonymous caller, whom
   * the sample answers 401: the browser logs that response, which is no error of the page.
   */
  const open = async (options: OpenOptions = {}) => {
    const page = await openExplorer(browser, sample.explorerUrl, {
      expectedErrors: [/status of 401/],
      ...options,
    });
    opened.push(page);
    return page;
  };

  /** The page's own JS and CSS, as the browser received them while loading it. */
  const served = new Map<string, Buffer>();
  const pending: Promise<void>[] = [];
  const recordAssets = (response: Response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith(`${EXPLORER_PATH}/assets/`) || !/\.(js|css)$/.test(pathname)) return;
    pending.push(response.body().then((body) => void served.set(pathname, body)));
  };

  beforeAll(async () => {
    [browser, sample] = await Promise.all([
      launchChromium(),
      startExplorerSample('explorer-catalog'),
    ]);
    reader = await open({ beforeLoad: (context) => context.on('response', recordAssets) });
    calls = recordCalls(reader.page);
  });

  afterAll(async () => {
    await Promise.all(opened.map((page) => page.close()));
    await browser?.close();
    await sample?.stop();
  });

  it('weighs at most 150 KB of JS and CSS gzipped, as the page loads them', async () => {
    // The page has rendered its heading: every file it loads at start has arrived.
    await Promise.all(pending);
    expect([...served.keys()]).toEqual(
      expect.arrayContaining([
        `${EXPLORER_PATH}/assets/explorer.js`,
        `${EXPLORER_PATH}/assets/explorer.css`,
      ]),
    );
    const weights = Object.fromEntries(
      [...served].map(([path, body]) => [path, gzippedSize(body)]),
    );
    expect(total(weights), JSON.stringify(weights)).toBeLessThanOrEqual(WEIGHT_BUDGET_BYTES);
  });

  it('shows the reader the three tools the reader may call, with the server and its instructions', async () => {
    const { page } = reader;
    await useToken(page, SAMPLE_DEFAULTS.readerToken);
    await waitForToolCount(page, 3);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(
      'Product catalog',
    );
    expect(await page.getByRole('region', { name: 'Instructions' }).textContent()).toContain(
      'Tools for the product catalog of an online shop',
    );
    await expectEntries(page, READ_TOOLS);
    for (const tab of ['Prompts', 'Resources', 'Templates']) {
      await poll(() =>
        page.getByRole('tab', { name: new RegExp(`^${tab} \\(\\d+\\)`) }).count(),
      ).toBe(1);
    }
    await expectAccessible(page, 'tools list, reader');
    expect(await unreachableByKeyboard(page)).toEqual([]);
    await screenshot(page, 'tools-reader', page.getByRole('heading', { level: 1 }));
  });

  it('shows the admin every tool, and switches between the saved callers', async () => {
    const admin = await open();
    await useToken(admin.page, SAMPLE_DEFAULTS.adminToken);
    await waitForToolCount(admin.page, READ_TOOLS.length + WRITE_TOOLS.length);
    await expectEntries(admin.page, [...READ_TOOLS, ...WRITE_TOOLS]);
    await expectAccessible(admin.page, 'tools list, admin');
    await screenshot(admin.page, 'tools-admin', admin.page.getByRole('heading', { level: 1 }));

    // A second token: the page keeps both as callers, and switching reloads the lists.
    await useToken(admin.page, SAMPLE_DEFAULTS.readerToken);
    await waitForToolCount(admin.page, READ_TOOLS.length);
    const caller = admin.page.getByRole('combobox', { name: 'Caller' });
    const labels = (await caller.getByRole('option').allTextContents()).map((label) =>
      label.trim(),
    );
    // Named by their last 4 characters, never in full; the sample's two end alike.
    expect(labels).toEqual(['Anonymous', '…oken', '…oken (2)']);
    await caller.selectOption({ label: '…oken' });
    await waitForToolCount(admin.page, READ_TOOLS.length + WRITE_TOOLS.length);
    // Kept for the tab only: nothing in localStorage or a cookie.
    const kept = await admin.page.evaluate(() => JSON.stringify(localStorage) + document.cookie);
    expect(kept).not.toContain(SAMPLE_DEFAULTS.adminToken);
    expect(kept).not.toContain(SAMPLE_DEFAULTS.readerToken);
    expect(admin.errors).toEqual([]);
    expect(admin.offOrigin).toEqual([]);
  });

  it("shows a tool's title, description, annotations and input schema", async () => {
    const { page } = reader;
    await openTool(page, 'search_products');
    await poll(() => pageText(page)).toContain('Search products');
    expect(await pageText(page)).toContain('Search the product catalog.');
    expect(await pageText(page)).toContain('read-only');
    const schema = page.getByRole('region', { name: 'Input schema' });
    for (const property of ['query', 'category', 'minPrice', 'maxPrice', 'limit']) {
      expect(await schema.textContent(), property).toContain(property);
    }
    // Enums are comboboxes, numbers and strings fields labelled by the property's name.
    expect(await page.getByRole('combobox', { name: 'category', exact: true }).count()).toBe(1);
    expect(await page.getByLabel('limit', { exact: true }).count()).toBe(1);
    await expectAccessible(page, 'tool detail');
    expect(await unreachableByKeyboard(page)).toEqual([]);
  });

  it('refuses limit: 500 before sending, naming the field, and sends nothing', async () => {
    const { page } = reader;
    const sent = toolCalls(calls).length;
    const limit = page.getByLabel('limit', { exact: true });
    await limit.fill('500');
    await page.getByRole('button', { name: 'Call' }).click();
    await poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    const alert = page.getByRole('alert').filter({ hasText: /limit/ });
    expect(await alert.textContent()).toMatch(/limit: .*50/);
    expect(toolCalls(calls)).toHaveLength(sent);
    await expectAccessible(page, 'form refusal');
    await screenshot(page, 'refusal', page.getByRole('heading', { name: 'Call', exact: true }));
  });

  it('shows the refusal of limit: 500 by the server on the field too, naming it', async () => {
    const { page } = reader;
    const sent = toolCalls(calls).length;
    // The form checks what it can; the raw arguments go as written, so the server judges them.
    await page.getByRole('checkbox', { name: 'Raw JSON' }).check();
    await page.getByRole('textbox', { name: 'Arguments (JSON)' }).fill('{"limit": 500}');
    await page.getByRole('button', { name: 'Call' }).click();
    await poll(() => toolCalls(calls).length).toBe(sent + 1);
    expect(toolCalls(calls).at(-1)).toEqual({ name: 'search_products', arguments: { limit: 500 } });
    await poll(() => result(page).textContent()).toContain('Error');
    expect(await result(page).textContent()).toMatch(/limit:? must not be greater than 50/);
    await page.getByRole('checkbox', { name: 'Raw JSON' }).uncheck();
    const limit = page.getByLabel('limit', { exact: true });
    await poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    const alert = page.getByRole('alert').filter({ hasText: /limit/ });
    expect(await alert.textContent()).toMatch(/limit:? must not be greater than 50/);
  });

  it('calls search_products and shows its structured result, as the server sent it', async () => {
    const { page } = reader;
    await page.getByRole('combobox', { name: 'category', exact: true }).selectOption('books');
    await page.getByLabel('limit', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Call' }).click();
    const structured = page.getByRole('region', { name: 'Structured content' });
    await structured.waitFor();
    const call = calls.findLast((sent) => sent.method === 'tools/call')!;
    expect(call.params.arguments).toEqual({ category: 'books', limit: 2 });
    const answer = (await call.answer)!.result;
    expect(answer.isError).toBeFalsy();
    const [first, second] = answer.structuredContent.items;
    const text = await structured.textContent();
    for (const shown of [
      String(answer.structuredContent.total),
      first.name,
      second.name,
      first.id,
    ]) {
      expect(text).toContain(shown);
    }
    expect(await result(page).textContent()).not.toContain('Error');
    // A collapsible tree: each object or array a details element with its summary.
    expect(await structured.getByRole('group').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'call result');
    expect(await unreachableByKeyboard(page)).toEqual([]);
    await screenshot(page, 'result', result(page));
  });

  it('shows the curl of that call with the token masked, and the curl gets the same answer', async () => {
    const { page } = reader;
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const curl = page.getByRole('region', { name: 'curl' });
    await poll(() => curl.textContent()).toContain('curl');
    expect(await curl.textContent()).not.toContain(SAMPLE_DEFAULTS.readerToken);
    expect(await page.evaluate(() => navigator.clipboard.readText())).not.toContain(
      SAMPLE_DEFAULTS.readerToken,
    );
    await page.getByRole('checkbox', { name: 'Show token' }).check();
    await poll(() => curl.textContent()).toContain(SAMPLE_DEFAULTS.readerToken);
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    // What the user pastes: the clipboard, which holds what the region shows.
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toMatch(/^curl /);
    expect(await curl.textContent()).toContain(command);

    const call = calls.findLast((sent) => sent.method === 'tools/call')!;
    const shown = (await call.answer)!.result;
    const answer = messageOfBody(await runInShell(command));
    expect(answer?.result).toEqual(shown);
    await expectAccessible(page, 'copy as curl');
  });

  it('shows the German titles and descriptions after switching the language', async () => {
    const { page } = reader;
    const language = page.getByRole('combobox', { name: 'Language' });
    const options = await language.getByRole('option').allTextContents();
    expect(options.map((option) => option.trim())).toEqual(['Server default', 'en', 'de']);
    await language.selectOption('de');
    await poll(() => pageText(page)).toContain('Produkte suchen');
    expect(await pageText(page)).toContain('Der Einstieg in den Katalog');
    expect(await entry(page, 'get_product').textContent()).toContain('Produkt abrufen');
    // The lists were read again, in German.
    const list = calls.findLast((call) => call.method === 'tools/list')!;
    expect(list.headers['accept-language']).toMatch(/^de\b/);
    await expectAccessible(page, 'German');
    await screenshot(
      page,
      'german',
      page.getByRole('heading', { level: 2, name: 'search_products' }),
    );
    await language.selectOption({ label: 'Server default' });
    await poll(() => pageText(page)).toContain('Search the product catalog.');
  });

  it('shows the prompts, resources and templates, each screen accessible', async () => {
    const { page } = reader;
    for (const [tab, first] of [
      ['Prompts', 'restock_plan'],
      ['Resources', 'catalog://categories'],
      ['Templates', 'catalog://products/{id}'],
    ] as const) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}\\b`) }).click();
      await entry(page, first).click();
      await page.getByRole('heading', { level: 2, name: first }).waitFor();
      await expectAccessible(page, `${tab} tab`);
    }
    expect(reader.errors).toEqual([]);
    expect(reader.offOrigin).toEqual([]);
  });

  it("gets a prompt, its argument completed from the server's suggestions", async () => {
    const { page } = reader;
    await page.getByRole('tab', { name: /^Prompts\b/ }).click();
    await entry(page, 'restock_plan').click();
    await page.getByRole('heading', { level: 2, name: 'restock_plan', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'category', exact: true }).fill('g');
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await poll(() => suggestions.getByRole('option').allTextContents()).toEqual(['garden']);
    await suggestions.getByRole('option', { name: 'garden' }).click();
    expect(await page.getByRole('textbox', { name: 'category', exact: true }).inputValue()).toBe(
      'garden',
    );
    await page.getByRole('textbox', { name: 'weeks', exact: true }).fill('6');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    const messages = page.getByRole('list', { name: 'Messages' });
    await poll(() => messages.textContent()).toContain('next 6 weeks');
    expect(await messages.textContent()).toContain('user');
    expect(await messages.textContent()).toContain('catalog://categories/garden/stock');
    await expectAccessible(page, 'prompt messages');
  });

  it('can be used by keyboard alone: a token, a tool, a field, a call, its result', async () => {
    const { page, errors, offOrigin } = await open();
    const sent = recordCalls(page);
    await tabTo(page, page.getByRole('textbox', { name: 'Bearer token' }));
    await page.keyboard.type(SAMPLE_DEFAULTS.readerToken);
    await tabTo(page, page.getByRole('button', { name: 'Use token' }));
    await page.keyboard.press('Enter');
    await waitForToolCount(page, 3);
    // The tabs are one stop; the arrow keys move between them.
    const tools = page.getByRole('tab', { name: /^Tools\b/ });
    await tabTo(page, tools);
    await page.keyboard.press('ArrowRight');
    const prompts = page.getByRole('tab', { name: /^Prompts\b/ });
    await poll(() => prompts.getAttribute('aria-selected')).toBe('true');
    expect(await prompts.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await poll(() => tools.getAttribute('aria-selected')).toBe('true');

    await tabTo(page, entry(page, 'search_products'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'search_products' }).waitFor();
    await tabTo(page, page.getByLabel('query', { exact: true }));
    await page.keyboard.type('keyboard');
    await tabTo(page, page.getByRole('button', { name: 'Call' }));
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: 'Structured content' }).waitFor();
    // The form sends what it shows: the typed query, and limit's default, filled in.
    expect(toolCalls(sent)).toEqual([
      { name: 'search_products', arguments: { query: 'keyboard', limit: 10 } },
    ]);
    const answer = (await sent.findLast((call) => call.method === 'tools/call')!.answer)!.result;
    expect(answer.structuredContent.total).toBeGreaterThan(0);
    expect(await result(page).textContent()).toContain(answer.structuredContent.items[0].name);
    expect(errors).toEqual([]);
    expect(offOrigin).toEqual([]);
  });
});
