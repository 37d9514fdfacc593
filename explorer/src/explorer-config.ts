/** The configuration the server embeds in the page's HTML shell (docs/explorer.md, lib/explorer/explorer-page.ts). */
export interface ExplorerConfig {
  /** The server's title (`discovery.title ?? name`). */
  title: string;
  /** Absolute path of this server's MCP endpoint, global prefix included. */
  endpoint: string;
  /** Every server of the app that has an explorer. */
  servers: { name: string; title: string; endpoint: string; explorer: string }[];
  /** The i18n locales, default first; empty without i18n. */
  locales: string[];
  /** Present when the server sets `auth`. */
  auth?: {
    resourceMetadataUrl: string;
    clientMetadataUrl: string;
    redirectUri: string;
    scopes: string[];
  };
  /** Absolute path of the sandbox page an MCP Apps view runs in. */
  sandbox: string;
}

/** Reads the JSON the shell carries in `<script id="mcp-explorer-config">`. */
export function readExplorerConfig(doc: Document): ExplorerConfig {
  const element = doc.getElementById('mcp-explorer-config');
  if (!element?.textContent) {
    throw new Error(
      'The page has no #mcp-explorer-config script: open the explorer through the route the server mounts, not the built file',
    );
  }
  const config = JSON.parse(element.textContent) as ExplorerConfig;
  return { ...config, servers: config.servers ?? [], locales: config.locales ?? [] };
}
