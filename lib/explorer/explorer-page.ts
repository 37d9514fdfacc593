/**
 * What the explorer's routes write: the HTML shell of the page with its configuration, the
 * sandbox page of MCP Apps views, and the OAuth Client ID Metadata Document the page signs
 * in with. The page itself is the built script (explorer/, docs/explorer.md).
 */

/** One server of the app the page can switch to. */
export interface ExplorerServerEntry {
  readonly name: string;
  readonly title: string;
  /** The absolute path of its MCP endpoint, global prefix included. */
  readonly endpoint: string;
  /** The absolute path of its explorer. */
  readonly explorer: string;
}

/** How the page signs in through the server's authorization server (authorization code + PKCE). */
export interface ExplorerAuthConfig {
  /** The absolute URL of the server's Protected Resource Metadata (RFC 9728). */
  readonly resourceMetadataUrl: string;
  /** The absolute URL of the explorer's Client ID Metadata Document (its `client_id`). */
  readonly clientMetadataUrl: string;
  /** The absolute URL the authorization server sends the browser back to. */
  readonly redirectUri: string;
  /** The scopes `@McpScopes()` names on the server. */
  readonly scopes: readonly string[];
}

/** The configuration the shell hands the page, in `<script id="mcp-explorer-config">`. */
export interface ExplorerConfig {
  readonly title: string;
  /** The absolute path of this server's MCP endpoint, global prefix included. */
  readonly endpoint: string;
  /** Every server of the app that has an explorer, this one included. */
  readonly servers: readonly ExplorerServerEntry[];
  /** The server's locales (`i18n`), the default first; none without `i18n`. */
  readonly locales: readonly string[];
  /** Present when the server is an OAuth resource server (`auth`). */
  readonly auth?: ExplorerAuthConfig;
  /** The absolute path of the sandbox page MCP Apps views run in. */
  readonly sandbox: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/**
 * JSON inside a `<script>` element: `<` written as `\u003c`, so that no value (a title, a
 * server's name) can close the element (`</script>`) or open a comment in it.
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page: its stylesheet, its configuration and its script, all from the explorer's own
 * path (`base`), so that the page's policy needs nothing inline.
 */
export function explorerShell(title: string, base: string, config: ExplorerConfig): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · MCP explorer</title>`,
    `<link rel="stylesheet" href="${escapeHtml(base)}/assets/explorer.css">`,
    `<script type="application/json" id="mcp-explorer-config">${scriptJson(config)}</script>`,
    `<script type="module" src="${escapeHtml(base)}/assets/explorer.js"></script>`,
    '</head><body><div id="app"></div></body></html>',
  ].join('\n');
}

/**
 * The sandbox a view runs in: an empty document whose script receives the view's HTML from
 * the page and writes it in. A module script: the iframe's origin is opaque, so the script
 * is fetched with CORS, which the assets allow.
 */
export function viewSandboxPage(base: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<script type="module" src="${escapeHtml(base)}/assets/sandbox.js"></script>` +
    '</head><body></body></html>'
  );
}

/**
 * The explorer's OAuth Client ID Metadata Document: its URL is its `client_id`, so an
 * authorization server that accepts such documents needs no registration. A public client
 * (no secret: the page runs in a browser) that proves itself with PKCE.
 */
export const clientMetadataDocument = (clientId: string, redirectUri: string) => ({
  client_id: clientId,
  client_name: 'MCP explorer',
  redirect_uris: [redirectUri],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
});
