/**
 * The Content-Security-Policies of the explorer: the page's own, which lets it reach only
 * its origin and the authorization servers it signs in with, and the one of the sandbox an
 * MCP Apps view runs in, made from the domains the view declares (`_meta.ui.csp`).
 */

/**
 * An `http(s)` origin, or one with a wildcard subdomain (`https://*.example.com`, as MCP
 * Apps allows): host labels of letters, digits and `-`, or an IPv6 literal, and a port.
 * Nothing else may reach a directive, neither a keyword nor a path nor a `;`.
 */
const HTTP_ORIGIN =
  /^https?:\/\/(?:(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?\/?$/i;

/** `value` as a CSP host source when it is an http(s) origin; `undefined` otherwise. */
export function httpOriginSource(value: unknown): string | undefined {
  if (typeof value !== 'string' || !HTTP_ORIGIN.test(value)) return undefined;
  return value.replace(/\/$/, '').toLowerCase();
}

const unique = (values: Iterable<string>) => [...new Set(values)];

const policy = (directives: Record<string, readonly string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/**
 * The page's policy: scripts, styles and fonts of its own origin only, no inline code, no
 * plugin, no framing by another page; it connects to its own origin (the endpoint) and to
 * `connectOrigins`, the authorization servers a sign-in talks to.
 */
export function explorerPageCsp(connectOrigins: readonly string[] = []): string {
  return policy({
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': unique(["'self'", ...connectOrigins]),
    'frame-src': ["'self'"],
    'form-action': ["'self'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
  });
}

/** The domains of a view's `_meta.ui.csp` (MCP Apps `McpUiResourceCsp`), each checked. */
export interface ViewDomains {
  readonly connectDomains: readonly string[];
  readonly resourceDomains: readonly string[];
  readonly frameDomains: readonly string[];
  readonly baseUriDomains: readonly string[];
}

const DOMAIN_KEYS = [
  'connectDomains',
  'resourceDomains',
  'frameDomains',
  'baseUriDomains',
] as const;

/**
 * The domains of the `csp` query of the sandbox's URL, the JSON of the view's
 * `_meta.ui.csp`: what is not an http(s) origin is dropped, as is a query that is not JSON.
 * The query is written by the page, but anyone can write a URL, so nothing of it is trusted.
 */
export function viewDomainsOf(query: string | null | undefined): ViewDomains {
  let declared: unknown;
  try {
    declared = query ? JSON.parse(query) : undefined;
  } catch {
    declared = undefined;
  }
  const record =
    typeof declared === 'object' && declared !== null && !Array.isArray(declared)
      ? (declared as Record<string, unknown>)
      : {};
  const domains = Object.fromEntries(
    DOMAIN_KEYS.map((key) => {
      const listed = Array.isArray(record[key]) ? (record[key] as unknown[]) : [];
      const sources = listed.map(httpOriginSource).filter((source) => source !== undefined);
      return [key, unique(sources)];
    }),
  );
  return domains as unknown as ViewDomains;
}

/**
 * The sandbox's policy: a view is one HTML file, so its inline scripts and styles run;
 * besides, it loads only from the resource domains it declares, connects only to its
 * connect domains and frames only its frame domains (none by default), and only the
 * explorer may frame it. `'self'` is there for the sandbox's own script, which relays the
 * view's messages; the view runs in an opaque origin, so it reaches the app with no cookie.
 */
export function viewSandboxCsp(domains: ViewDomains): string {
  const { connectDomains, resourceDomains, frameDomains, baseUriDomains } = domains;
  const resources = (...sources: string[]) => [...sources, ...resourceDomains];
  return policy({
    'default-src': ["'none'"],
    'script-src': resources("'self'", "'unsafe-inline'"),
    'style-src': resources("'self'", "'unsafe-inline'"),
    'img-src': resources("'self'", 'data:', 'blob:'),
    'media-src': resources("'self'", 'data:', 'blob:'),
    'font-src': resources("'self'", 'data:'),
    'connect-src': connectDomains.length > 0 ? connectDomains : ["'none'"],
    'frame-src': frameDomains.length > 0 ? frameDomains : ["'none'"],
    'base-uri': baseUriDomains.length > 0 ? baseUriDomains : ["'self'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'self'"],
  });
}
