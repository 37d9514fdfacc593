/**
 * The messages about the servers of an app and serving them: their names and HTTP paths,
 * choosing one by name, and what a developer should change that only shows while serving.
 */

export const notInitialisedMessage = (): string =>
  'The MCP server is not initialised yet: call app.init() (or app.listen()) first.';

export const duplicateServerNameMessage = (name: string): string =>
  `Two McpModule registrations are named "${name}". Each MCP server needs its own name ` +
  `(clients see it in serverInfo, and McpServers.get(name), stdio and the CLI choose a ` +
  `server by it): rename one.`;

export const duplicateServerPathMessage = (first: string, second: string, path: string): string =>
  `The MCP servers "${first}" and "${second}" both claim the HTTP path "/${path}". Give each ` +
  `registration its own http.path, such as http: { path: 'mcp/${second}' }, or http: false ` +
  `for a server served only over stdio.`;

export const unknownServerMessage = (name: string, names: readonly string[]): string =>
  `There is no MCP server named "${name}"; the app's servers are: ` +
  `${names.join(', ') || 'none (import McpModule.forRoot({ name, version }))'}.`;

export const deprecatedAliasMessage = (alias: string, tool: string): string =>
  `A client called the tool "${alias}", a deprecated alias of "${tool}": it still works, but ` +
  `tools/list shows only "${tool}"; move clients to that name, then drop the alias from ` +
  `@McpTool({ aliases }).`;

export const cannotAskMessage = (what: string): string =>
  `The ${what} asked a 2025-era client for input, which it cannot be asked without a ` +
  `session; the client got an error. Enable http: { legacySessions: true } to ask ` +
  `2025-era clients (2026-07-28 clients are asked either way).`;
