/**
 * The messages of the pre-connection discovery documents (`discovery`): the Server Card and
 * the AI Catalog, as the app's log and their error answers word them.
 */

/**
 * A card named the endpoint at the request's own origin: right on a developer's machine,
 * wrong behind a proxy that terminates TLS or rewrites the host. Logged once per server.
 */
export const derivedCardUrlMessage = (server: string, url: string): string =>
  `The Server Card of the MCP server "${server}" names its endpoint ${url}, made from the ` +
  `request's host. Set http.publicUrl (such as 'https://mcp.example.com') to the URL clients ` +
  `reach in production, so that the card does not depend on the request.`;

/**
 * The answer to a card request whose host the server does not answer to, without
 * `http.publicUrl`: the card cannot name an endpoint. Public, so it names no host.
 */
export const cardUnservedHostMessage = (): string =>
  'This host is not one this MCP server answers to, so its Server Card cannot name the ' +
  "endpoint: the app sets http.publicUrl to its public URL, or lists the host in the McpModule's " +
  'http.allowedHosts.';
