/** The messages of the explorer (`explorer`), as the app's log words them. */

/** Where a server's explorer is, once the app is up. */
export const explorerAtMessage = (path: string): string => `MCP explorer at ${path}`;

/** Why there is no explorer in production: it is off there unless the options turn it on. */
export const explorerOffInProductionMessage = (server: string): string =>
  `The MCP server "${server}" serves no explorer: NODE_ENV is production. ` +
  `explorer: true (or { enabled: true }) serves it there too.`;

/** The page's built files are not beside the library (a build of nestjs-mcp without vite). */
export const explorerAssetsMissingMessage = (server: string, looked: readonly string[]): string =>
  `The explorer of the MCP server "${server}" has no page to serve: its built files ` +
  `(explorer.js) are not in ${looked.join(' nor ')}. Build nestjs-mcp with "npm run build", ` +
  `which bundles them, or turn the explorer off with explorer: false.`;
