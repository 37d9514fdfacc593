import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../../support/captured-logs.js';
import { startApp, type RunningApp } from '../../support/fixture-app.js';
import { launchChromium } from '../support/chromium.js';
import { recordCalls, toolCalls, type SentCall } from './support/explorer-calls.js';
import {
  openExplorer,
  openTool,
  waitForToolCount,
  type ExplorerPage,
  poll,
} from './support/explorer-page.js';
import { HOSTILE, HostileFixtureModule, HUGE_TEXT } from './support/hostile.fixture.js';

const logs = captureLogs();

/**
 * A server whose tool is written by an attacker (issue 30): its title, description and
 * result carry markup that runs if the page writes it as HTML, and a description of 200 KB.
 * The page's CSP would block most of it anyway; it is turned off here, so that what is tested
 * is the page itself: it writes every text as text.
 */
describe.sequential('the explorer, given hostile texts', () => {
  let browser: Browser;
  let running: RunningApp;
  let explorer: ExplorerPage;
  let calls: SentCall[];

  beforeAll(async () => {
    [browser, running] = await Promise.all([
      launchChromium(),
      startApp(HostileFixtureModule, { logger: logs }),
    ]);
    explorer = await openExplorer(browser, `${running.url.href}/explorer`, { bypassCSP: true });
    calls = recordCalls(explorer.page);
    await waitForToolCount(explorer.page, 1);
  });

  afterAll(async () => {
    await explorer?.close();
    await browser?.close();
    await running?.close();
  });

  /** What would show that markup ran or became elements: empty when the page is safe. */
  const traces = () =>
    explorer.page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      images: [...document.querySelectorAll('img')].map((img) => img.getAttribute('src')),
      handlers: [...document.querySelectorAll('*')]
        .flatMap((element) => element.getAttributeNames().filter((name) => name.startsWith('on')))
        .filter(Boolean),
      inlineScripts: [...document.querySelectorAll('script:not([src])')]
        .filter((script) => script.getAttribute('type') !== 'application/json')
        .map((script) => script.textContent),
      frames: [...document.querySelectorAll('iframe')].map((frame) => frame.getAttribute('srcdoc')),
      svgs: document.querySelectorAll('svg[onload]').length,
      links: [...document.querySelectorAll('a[href]')]
        .map((link) => link.getAttribute('href'))
        .filter((href) => /^\s*javascript:/i.test(href ?? '')),
      bold: [...document.querySelectorAll('b, em')].map((element) => element.textContent),
    }));
  const noTraces = {
    pwned: null,
    images: [],
    handlers: [],
    inlineScripts: [],
    frames: [],
    svgs: 0,
    links: [],
    bold: [],
  };

  it("shows the server's title, the tool's title and the instructions as text", async () => {
    const { page } = explorer;
    // The server wrote this one into the shell itself: the <title> and the config JSON.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(
      HOSTILE.serverTitle,
    );
    expect(await page.title()).toBe(`${HOSTILE.serverTitle} · MCP explorer`);
    expect(await page.getByRole('region', { name: 'Instructions' }).textContent()).toContain(
      `${HOSTILE.title} instructions`,
    );
    expect(await page.getByRole('tabpanel').textContent()).toContain(HOSTILE.title);
    expect(await traces()).toEqual(noTraces);
  });

  it('shows the description as text, however long', async () => {
    const { page } = explorer;
    await openTool(page, 'hostile_echo');
    const shown = await page.locator('body').innerText();
    expect(shown).toContain(HOSTILE.description);
    expect(shown).toContain('Huge description start.');
    expect(await traces()).toEqual(noTraces);
    // The page still answers: the long text did not stall it.
    expect(await page.evaluate(() => document.body.textContent!.length)).toBeLessThan(
      HUGE_TEXT.length * 3,
    );
  });

  it("shows the tool's result as text: its content, its structured content and its link", async () => {
    const { page } = explorer;
    await page.getByLabel('note', { exact: true }).fill(HOSTILE.argument);
    await page.getByRole('button', { name: 'Call' }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await poll(() => result.textContent()).toContain(HOSTILE.resultText);
    expect(toolCalls(calls)).toEqual([
      { name: 'hostile_echo', arguments: { note: HOSTILE.argument } },
    ]);
    expect(await result.textContent()).toContain(`note: ${HOSTILE.argument}`);
    expect(await page.getByRole('region', { name: 'Structured content' }).textContent()).toContain(
      HOSTILE.structured,
    );
    expect(await result.textContent()).toContain('<b>link</b>');
    expect(await traces()).toEqual(noTraces);
    expect(explorer.errors).toEqual([]);
    expect(explorer.offOrigin).toEqual([]);
  });
});
