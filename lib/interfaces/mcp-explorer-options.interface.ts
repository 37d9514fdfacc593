/**
 * The explorer (docs/explorer.md): a web page of the app, next to the endpoint, where a
 * person lists and tries what the server publishes, as the caller they sign in as. It is a
 * client of the endpoint: every request it makes goes through the endpoint's guards.
 */
export interface McpExplorerOptions {
  /**
   * Serves the page. Left out, it is served unless `NODE_ENV` is `production`; `true`
   * serves it there too.
   * @default true, except when `process.env.NODE_ENV === 'production'`
   */
  enabled?: boolean;
  /**
   * Where the page is, an absolute path under the app's global prefix, such as
   * `'/tools-explorer'`.
   * @default '<http.path>/explorer', such as '/mcp/explorer'
   */
  path?: string;
  /**
   * The page's title.
   * @default `discovery.title`, else the server's `name`
   */
  title?: string;
}
