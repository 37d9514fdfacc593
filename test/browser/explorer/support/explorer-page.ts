import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, type ExpectStatic } from 'vitest';

/** What the tests wait for at most: the page talks to a server on the same machine. */
export const WAIT_MS = 10_000;

/**
 * `expect.poll` with the tests' wait rather than its own second, which a loaded machine
 * (the whole suite in parallel) or a task polled every second can take.
 */
export const poll = (read: () => unknown): ReturnType<ExpectStatic['poll']> =>
  expect.poll(read, { timeout: WAIT_MS });

const require = createRequire(import.meta.url);
/**
 * axe-core's source, evaluated in the page rather than added as a `<script>`: the explorer's
 * CSP (`script-src 'self'`) refuses an inline script, as it must, and DevTools evaluation is
 * not subject to it. The CSP stays on, so the tests see the page as users get it.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The docs' screenshots, written only with EXPLORER_SCREENSHOTS=1 (see {@link screenshot}). */
const SCREENSHOTS_DIR = fileURLToPath(
  new URL('../../../../docs/images/explorer/', import.meta.url),
);
/** A fixed size, so the screenshots in docs/explorer.md keep their layout from run to run. */
export const VIEWPORT = { width: 1280, height: 800 };

/** An explorer tab with what it did: requests that left its origin, errors it logged. */
export interface ExplorerPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** URLs the page (or a frame of it) requested outside the allowed origins. */
  readonly offOrigin: string[];
  /** `console.error` messages and uncaught exceptions (`pageerror`). */
  readonly errors: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Origins besides the explorer's that the page may reach (the authorization server's). */
  allowOrigins?: string[];
  /** Console errors that are expected (a 401 the page answers by signing in), by fragment. */
  expectedErrors?: RegExp[];
  /**
   * Turns the page's CSP off, for the tests of hostile content: they must see that the page
   * writes it as text, which the CSP would hide by blocking what an HTML rendering runs.
   */
  bypassCSP?: boolean;
  /** Runs on the new context before the page loads (to record its responses, say). */
  beforeLoad?: (context: BrowserContext) => unknown;
}

/**
 * Opens `url` in a context of its own (its own storage: a token saved by one test stays
 * out of the others' pages) at the docs' viewport, recording what left the origin and what
 * went wrong in the page, and waits for the page to have rendered its heading.
 */
export async function openExplorer(
  browser: Browser,
  url: string,
  options: OpenOptions = {},
): Promise<ExplorerPage> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    // The browser's language: the server default stays English whatever the machine's.
    locale: 'en-US',
    // "Copy as ..." writes to the clipboard; the tests read back what was copied.
    permissions: ['clipboard-read', 'clipboard-write'],
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const allowed = new Set([new URL(url).origin, ...(options.allowOrigins ?? [])]);
  const offOrigin: string[] = [];
  const errors: string[] = [];
  // Every request of the page and of its frames (the view's sandbox included) goes through
  // the context: data:, blob: and about: stay in the browser.
  context.on('request', (request) => {
    const target = new URL(request.url());
    if (!/^https?:$/.test(target.protocol)) return;
    if (!allowed.has(target.origin)) offOrigin.push(request.url());
  });
  const expected = options.expectedErrors ?? [];
  const record = (text: string) => {
    if (!expected.some((pattern) => pattern.test(text))) errors.push(text);
  };
  page.on('pageerror', (error) => record(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser asks for /favicon.ico by itself, and the app has none: not the page's doing.
    if (new URL(message.location().url || 'about:blank').pathname === '/favicon.ico') return;
    if (message.type() === 'error')
      record(`console: ${message.text()} (${message.location().url})`);
  });
  await options.beforeLoad?.(context);
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { page, context, offOrigin, errors, close: () => context.close() };
}

/**
 * The serious and critical violations axe-core finds on the page as it is now, as
 * `rule (impact): target: summary` lines; `[]` when there are none.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // In every frame too (an app view's sandbox): axe-core checks each through the one of the
  // page, and a frame without it would only be skipped.
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  }
  const results = (await page.evaluate(() =>
    // Violations only: axe-core then skips the details of what passed, which costs time.
    (
      window as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } }
    ).axe.run(document, { resultTypes: ['violations'] }),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary ?? violation.help}`,
      ),
    );
}

/** Fails, naming each rule and element, when axe-core finds a serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousViolations(page), `axe-core on the screen "${screen}"`).toEqual([]);
}

/**
 * Saves the page as docs/images/explorer/<screen>.png, `subject` scrolled to the top, only
 * when EXPLORER_SCREENSHOTS=1: a test run (`npm test`) must leave the tree as it found it,
 * so the docs' images are taken by hand with
 * `EXPLORER_SCREENSHOTS=1 npx vitest run test/browser/explorer`.
 */
export async function screenshot(page: Page, screen: string, subject?: Locator): Promise<void> {
  if (process.env.EXPLORER_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  // The subject at the top of the picture, as a reader scrolled to it would see it.
  if (subject) await subject.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${SCREENSHOTS_DIR}${screen}.png` });
}

/** The entry buttons of the list in the current tab panel. */
export const entries = (page: Page): Locator =>
  page.getByRole('tabpanel').getByRole('list').first().getByRole('button');

/** The entry button of `name` in the visible list (its accessible name starts with it). */
export const entry = (page: Page, name: string): Locator =>
  page.getByRole('tabpanel').getByRole('button', {
    name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`),
  });

/** Fails unless the visible list holds exactly the entries `names`, each once. */
export async function expectEntries(page: Page, names: readonly string[]): Promise<void> {
  expect(await entries(page).count()).toBe(names.length);
  for (const name of names) expect(await entry(page, name).count(), name).toBe(1);
}

/** Opens the tool `name` of the Tools tab and waits for its detail (heading level 2). */
export async function openTool(page: Page, name: string): Promise<void> {
  const tools = page.getByRole('tab', { name: /^Tools\b/ });
  if ((await tools.getAttribute('aria-selected')) !== 'true') await tools.click();
  await entry(page, name).click();
  await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
}

/** Uses `token` as the caller's bearer token (the page then reloads its lists). */
export async function useToken(page: Page, token: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Bearer token' }).fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
}

/** Waits until the Tools tab shows `count` tools (the lists are reloaded after a caller change). */
export async function waitForToolCount(page: Page, count: number): Promise<void> {
  await page.getByRole('tab', { name: new RegExp(`^Tools \\(${count}\\)`) }).waitFor();
}

/**
 * The value and maximum of a progressbar, as assistive technology reads them: its
 * aria-valuenow/aria-valuemax, or those a `<progress>` element implies.
 */
export function progressOf(bar: Locator): Promise<{ now: number | null; max: number | null }> {
  return bar.evaluate((element) => {
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- runs in the page, which gets this callback's source alone
    const number = (value: string | number | null | undefined) =>
      value === null || value === undefined || value === '' ? null : Number(value);
    const native = element instanceof HTMLProgressElement ? element : undefined;
    const indeterminate = native && !native.hasAttribute('value');
    return {
      now:
        number(element.getAttribute('aria-valuenow')) ??
        (indeterminate ? null : number(native?.value)),
      max:
        number(element.getAttribute('aria-valuemax')) ??
        (indeterminate ? null : number(native?.max)),
    };
  });
}

/** The state of {@link unreachableByKeyboard} in the page. */
interface KeyboardWalk {
  controls: Element[];
  reached: Set<number>;
  stop(): void;
}

/**
 * Elements a keyboard user cannot reach: every visible, enabled control of the page (links,
 * buttons, fields, summaries, anything with a tabindex ≥ 0) that Tab never focuses, walking
 * the whole tab sequence once. An item of a composite widget (tabs, options, radios) that
 * keeps a roving tabindex counts as reached when another item of its group is reached: the
 * arrow keys move between them. Frames are their own documents and not walked here.
 */
export async function unreachableByKeyboard(page: Page): Promise<string[]> {
  const total = await page.evaluate(() => {
    const selector =
      'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';
    // checkVisibility: what a closed <details> holds is laid out but not shown.
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- runs in the page, which gets this callback's source alone
    const visible = (element: Element) =>
      element.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    const controls = [...document.querySelectorAll(selector)].filter(
      (element) =>
        visible(element) &&
        !(element as HTMLButtonElement).disabled &&
        !element.closest('[inert]') &&
        // tabindex=-1 on a non-control (a heading focused after navigation) is meant to be
        // skipped by Tab; on a composite item, the group check below covers it.
        !(
          element.getAttribute('tabindex') === '-1' &&
          !['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY'].includes(element.tagName) &&
          !element.getAttribute('role')
        ),
    );
    const reached = new Set<number>();
    const record = (event: Event) => {
      const index = controls.indexOf(event.target as Element);
      if (index >= 0) reached.add(index);
    };
    document.addEventListener('focusin', record, true);
    const stop = () => document.removeEventListener('focusin', record, true);
    (window as unknown as { __keyboard: KeyboardWalk }).__keyboard = { controls, reached, stop };
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  // Focus moves are recorded in the page as they happen (the listener above), so the
  // presses need no round trip each. One press per control goes round once; the margin
  // covers the stops that are no control of this document (a frame's content, the
  // browser's own stop at the end).
  for (let press = 0; press < total + 10; press++) await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const state = (window as unknown as { __keyboard: KeyboardWalk }).__keyboard;
    state.stop();
    // The walk leaves the focus where it found none, so the next step starts as before it.
    (document.activeElement as HTMLElement | null)?.blur();
    const composite = ['tab', 'option', 'radio', 'menuitem', 'treeitem', 'gridcell'];
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- runs in the page, which gets this callback's source alone
    const groupOf = (element: Element) =>
      element.closest(
        '[role="tablist"], [role="listbox"], [role="radiogroup"], [role="menu"], [role="tree"], [role="grid"]',
      );
    const reachedGroups = new Set(
      [...state.reached].map((index) => groupOf(state.controls[index]!)).filter(Boolean),
    );
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- runs in the page, which gets this callback's source alone
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60)}"`;
    return state.controls
      .filter((element, index) => {
        if (state.reached.has(index)) return false;
        const role = element.getAttribute('role');
        return !(role && composite.includes(role) && reachedGroups.has(groupOf(element)));
      })
      .map(describe);
  });
}

/**
 * Presses Tab until `target` has the focus (at most `max` times), as a keyboard user moves
 * through the page; fails if it never gets there.
 */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let press = 0; press < max; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target} in ${max} presses`);
}
