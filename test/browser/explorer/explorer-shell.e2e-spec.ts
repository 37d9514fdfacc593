import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPLORER_PATH,
  startExplorerSample,
  type ExplorerSample,
} from './support/explorer-sample.js';
import {
  builtAssetWeights,
  configOf,
  cspDirectives,
  expectedPageCsp,
  total,
  WEIGHT_BUDGET_BYTES,
} from './support/explorer-wire.js';

/**
 * The explorer's page as the built sample serves it (issue 30): where it is mounted and where
 * not, the headers that confine it, what it weighs as built (what the browser loads is
 * weighed in explorer-catalog.e2e-spec.ts, which has a browser).
 */
describe('the explorer page of the sample', () => {
  let sample: ExplorerSample;
  let production: ExplorerSample;

  beforeAll(async () => {
    [sample, production] = await Promise.all([
      startExplorerSample('explorer-shell'),
      startExplorerSample('explorer-production', { NODE_ENV: 'production' }),
    ]);
  });

  afterAll(() => Promise.all([sample?.stop(), production?.stop()]));

  it('is not mounted in production without an explicit opt-in: every route answers 404', async () => {
    // The sample itself runs: its MCP endpoint answers, 401 without a token.
    const endpoint = await fetch(production.instance.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(endpoint.status).toBe(401);
    for (const path of [
      EXPLORER_PATH,
      `${EXPLORER_PATH}/`,
      `${EXPLORER_PATH}/assets/explorer.js`,
      `${EXPLORER_PATH}/assets/explorer.css`,
      `${EXPLORER_PATH}/oauth/client-metadata.json`,
      `${EXPLORER_PATH}/view-sandbox`,
    ]) {
      const response = await fetch(`${production.origin}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('mcp-explorer-config');
    }
    // Neither the library's line nor the sample's: no URL that would answer 404.
    expect(production.instance.output()).not.toContain('MCP explorer');
  });

  it('logs where it is mounted when it is', () => {
    expect(sample.instance.output()).toContain(`MCP explorer at ${EXPLORER_PATH}`);
    // The sample's own line, after listen(): the full URL to open.
    expect(sample.instance.output()).toContain(`MCP explorer: ${sample.explorerUrl}`);
  });

  it('serves the shell with a strict CSP and headers that keep it out of caches and frames', async () => {
    for (const path of [EXPLORER_PATH, `${EXPLORER_PATH}/`, `${EXPLORER_PATH}/oauth/callback`]) {
      const response = await fetch(`${sample.origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      // No authorization server without `auth`: the page connects to its own origin only.
      expect(cspDirectives(response.headers.get('content-security-policy')), path).toEqual(
        expectedPageCsp(),
      );
      const html = await response.text();
      expect(html, path).toContain(
        `<script type="module" src="${EXPLORER_PATH}/assets/explorer.js">`,
      );
      expect(html, path).toContain(
        `<link rel="stylesheet" href="${EXPLORER_PATH}/assets/explorer.css">`,
      );
      expect(html, path).toContain('<title>Product catalog · MCP explorer</title>');
    }
  });

  it('gives the page its config: the endpoint, the servers, the locales, the sandbox', async () => {
    const config = configOf(await (await fetch(sample.explorerUrl)).text());
    expect(config).toEqual({
      title: 'Product catalog',
      endpoint: '/mcp',
      servers: [
        { name: 'catalog', title: 'Product catalog', endpoint: '/mcp', explorer: EXPLORER_PATH },
      ],
      locales: ['en', 'de'],
      sandbox: `${EXPLORER_PATH}/view-sandbox`,
    });
  });

  it('serves only the built files, with their media types, an ETag and no-cache', async () => {
    for (const [file, type] of [
      ['explorer.js', /^text\/javascript|^application\/javascript/],
      ['explorer.css', /^text\/css/],
      ['sandbox.js', /^text\/javascript|^application\/javascript/],
    ] as const) {
      const response = await fetch(`${sample.explorerUrl}/assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toMatch(type);
      expect(response.headers.get('cache-control'), file).toBe('no-cache');
      expect(response.headers.get('x-content-type-options'), file).toBe('nosniff');
      const etag = response.headers.get('etag');
      expect(etag, file).toBeTruthy();
      const again = await fetch(`${sample.explorerUrl}/assets/${file}`, {
        headers: { 'If-None-Match': etag! },
      });
      expect(again.status, file).toBe(304);
    }
    for (const path of [
      '/assets/missing.js',
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await fetch(`${sample.explorerUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('"name": "nestjs-mcp"');
    }
  });

  it('answers GET and HEAD only', async () => {
    const head = await fetch(sample.explorerUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(sample.explorerUrl, { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('weighs at most 150 KB of JS and CSS gzipped, as built', () => {
    const weights = builtAssetWeights();
    expect(Object.keys(weights)).toEqual(
      expect.arrayContaining(['explorer.js', 'explorer.css', 'sandbox.js']),
    );
    expect(total(weights), JSON.stringify(weights)).toBeLessThanOrEqual(WEIGHT_BUDGET_BYTES);
  });
});
