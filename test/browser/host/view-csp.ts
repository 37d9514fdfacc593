import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The sources of a directive: the declared origins, or `none` when there are none. */
function list(domains: string[] | undefined, none = "'none'"): string {
  // A domain that could close the directive or add a keyword is dropped, not trusted.
  const safe = (domains ?? []).filter((domain) => /^[^\s;,'"]+$/.test(domain));
  return safe.length > 0 ? safe.join(' ') : none;
}

/**
 * The Content-Security-Policy a host gives a view, from the `_meta.ui.csp` of its resource: no
 * network unless the view declares domains, inline code and styles only (a single-file view
 * needs nothing else), as the MCP Apps specification's default.
 */
export function viewCsp(csp: McpUiResourceCsp | undefined): string {
  const resources = list(csp?.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src data: ${resources}`,
    `media-src data: ${resources}`,
    `connect-src ${list(csp?.connectDomains)}`,
    `frame-src ${list(csp?.frameDomains)}`,
    `base-uri ${list(csp?.baseUriDomains)}`,
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/** The view's HTML with its CSP as the first element of `<head>`, before any script can run. */
export function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) throw new Error('The view has no <head> to put its Content-Security-Policy in');
  const at = head.index + head[0].length;
  return html.slice(0, at) + meta + html.slice(at);
}
