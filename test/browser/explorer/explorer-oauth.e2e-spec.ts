import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATALOG_SCOPES,
  claimsOf,
  startAuthorizationServer,
  type RunningAuthorizationServer,
} from '../../support/authorization-server.js';
import { launchChromium } from '../support/chromium.js';
import { recordCalls, type SentCall } from './support/explorer-calls.js';
import {
  expectAccessible,
  openExplorer,
  waitForToolCount,
  type ExplorerPage,
} from './support/explorer-page.js';
import {
  EXPLORER_PATH,
  startExplorerSample,
  type ExplorerSample,
} from './support/explorer-sample.js';
import { configOf, cspDirectives, expectedPageCsp } from './support/explorer-wire.js';

/**
 * Lets the page register itself (RFC 7591) from the browser: oidc-provider answers its
 * registration endpoint without CORS headers, so a browser may not read the answer. An
 * authorization server that lets browser apps register (as MCP clients do) sends them; the
 * test adds them as such a server would, for `origin` only. The explorer's own Client ID
 * Metadata Document needs https, which the test's sample does not have.
 */
function allowRegistrationFrom(context: BrowserContext, origin: string, issuer: string) {
  const cors = {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': 'content-type, authorization',
  };
  return context.route(`${issuer}/reg`, async (route) => {
    if (route.request().method() === 'OPTIONS')
      return route.fulfill({ status: 204, headers: cors });
    const response = await route.fetch();
    return route.fulfill({ response, headers: { ...response.headers(), ...cors } });
  });
}

/** Every tool of the sample: what catalog.read and catalog.write together allow. */
const ALL_TOOLS = 9;

/**
 * Signing in through the explorer (issue 30): the built sample in its OAuth mode, against a
 * real authorization server in the test's process (oidc-provider, whose login and consent
 * pages are played by the harness: the one account signs in and consents to what is asked).
 * The page goes there, comes back with a code, exchanges it, and lists as the token allows.
 */
describe.sequential('the sample explorer with OAuth', () => {
  let browser: Browser;
  let issuer: RunningAuthorizationServer;
  let sample: ExplorerSample;
  let explorer: ExplorerPage;
  let calls: SentCall[];

  beforeAll(async () => {
    issuer = await startAuthorizationServer();
    [browser, sample] = await Promise.all([
      launchChromium(),
      startExplorerSample('explorer-oauth', { SAMPLE_OAUTH_ISSUER: issuer.issuer }),
    ]);
    // The sample's resource is its own URL, known once it listens (PORT=0).
    issuer.allowResource(sample.instance.url.href);
    explorer = await openExplorer(browser, sample.explorerUrl, {
      allowOrigins: [new URL(issuer.issuer).origin],
      // Before signing in the page is anonymous, and the endpoint answers that with a 401.
      expectedErrors: [/status of 401/],
      beforeLoad: (context) => allowRegistrationFrom(context, sample.origin, issuer.issuer),
    });
    calls = recordCalls(explorer.page);
  });

  afterAll(async () => {
    await explorer?.close();
    await browser?.close();
    await sample?.stop();
    await issuer?.close();
  });

  it('gives the page what it needs to sign in, and lets it reach the authorization server', async () => {
    const response = await fetch(sample.explorerUrl);
    expect(cspDirectives(response.headers.get('content-security-policy'))).toEqual(
      expectedPageCsp([new URL(issuer.issuer).origin]),
    );
    expect(configOf(await response.text()).auth).toEqual({
      resourceMetadataUrl: `${sample.origin}/.well-known/oauth-protected-resource/mcp`,
      clientMetadataUrl: `${sample.explorerUrl}/oauth/client-metadata.json`,
      redirectUri: `${sample.explorerUrl}/oauth/callback`,
      scopes: [...CATALOG_SCOPES],
    });
    const metadata = await fetch(`${sample.explorerUrl}/oauth/client-metadata.json`);
    expect(metadata.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await metadata.json()).toEqual({
      client_id: `${sample.explorerUrl}/oauth/client-metadata.json`,
      client_name: 'MCP explorer',
      redirect_uris: [`${sample.explorerUrl}/oauth/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });

  it('offers to sign in', async () => {
    const { page } = explorer;
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'sign in');
  });

  it('signs in at the authorization server and lists the tools the token allows', async () => {
    const { page } = explorer;
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The authorization server's pages (login, consent) are answered by the harness; the
    // browser is sent back to the callback, which finishes the sign-in.
    await page.waitForURL(
      (url) => url.pathname === `${EXPLORER_PATH}/oauth/callback` || url.pathname === EXPLORER_PATH,
    );
    await page.getByText('Signed in', { exact: true }).waitFor();
    await waitForToolCount(page, ALL_TOOLS);
    // An authorization code with PKCE, exchanged at the token endpoint.
    expect(issuer.requests).toEqual(expect.arrayContaining(['GET /auth', 'POST /token']));
    // The token the page sends: for this resource, with the scopes the page asked for.
    const list = calls.findLast((call) => call.method === 'tools/list')!;
    const token = /^Bearer (.+)$/.exec(list.headers.authorization ?? '')?.[1];
    expect(token).toBeDefined();
    const claims = claimsOf(token!);
    expect(claims.aud).toBe(sample.instance.url.href);
    expect(String(claims.scope).split(' ').toSorted()).toEqual([...CATALOG_SCOPES]);
    // The code never stays in the address bar.
    expect(new URL(page.url()).searchParams.has('code')).toBe(false);
    await expectAccessible(page, 'signed in');
    expect(explorer.errors).toEqual([]);
    expect(explorer.offOrigin).toEqual([]);
  });
});
