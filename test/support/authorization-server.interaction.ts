import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AuthorizeResult } from './authorization-server.js';

/**
 * What a login and consent page would do, without the page: the one account signs in, and
 * every scope and resource asked for is granted.
 */
export async function finishInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  accountId: string,
): Promise<void> {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login')
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
  const grant =
    (grantId && (await provider.Grant.find(grantId))) ||
    new provider.Grant({ accountId: session!.accountId, clientId: params.client_id });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [indicator, granted] of Object.entries(missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, granted.join(' '));
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

/** Follows redirects by hand with a cookie jar, as a browser would, until one leaves the issuer. */
export async function followAuthorization(start: URL, issuer: string): Promise<AuthorizeResult> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location)
      throw new Error(
        `The authorization server answered ${response.status} at ${url}: ${await response.text()}`,
      );
    await response.body?.cancel();
    url = new URL(location, url);
    if (url.origin !== new URL(issuer).origin) {
      const read = (name: string) => url.searchParams.get(name);
      return {
        redirect: url,
        code: read('code'),
        state: read('state'),
        iss: read('iss'),
        error: read('error'),
      };
    }
  }
  throw new Error(`The authorization server redirected more than 12 times from ${start}`);
}
