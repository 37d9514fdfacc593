/**
 * The messages about MCP Apps (docs/apps.md): views declared by the `apps.views` option or by
 * `@McpAppView()`, and the tools that name them with `@McpTool({ app })`.
 */

const quoted = (names: readonly string[]) =>
  names.length === 0 ? 'none' : names.map((name) => `"${name}"`).join(', ');

/** `where`: `the "apps.views" option` or `@McpAppView() on Views.card`. */
export const invalidViewNameMessage = (name: unknown, where: string): string =>
  `The view name ${JSON.stringify(name)} of ${where} is not valid: a view is named like a ` +
  `tool, matching ^[a-zA-Z0-9_.-]{1,128}$, such as 'product-card'.`;

export const invalidToolAppMessage = (where: string, problem: string): string =>
  `The "app" option of @McpTool() on ${where} ${problem}. Write it as ` +
  `{ view: 'product-card' }, or { visibility: ['app'] } for a tool only a view calls.`;

export const unreadableViewFileMessage = (
  view: string,
  file: string,
  reason: string,
  tools: readonly string[],
): string =>
  `The view "${view}" of the tool(s) ${quoted(tools)} (the "apps.views" option) cannot be ` +
  `read from ${file}: ${reason}. ` +
  `Build the view before starting the app (a single-file HTML bundle), and give its ` +
  `absolute path, such as fileURLToPath(new URL('../views/${view}.html', import.meta.url)).`;

export const unknownViewMessage = (
  tool: string,
  where: string,
  view: string,
  server: string,
  known: readonly string[],
): string =>
  `The tool "${tool}" (${where}) shows the view "${view}", which the MCP server "${server}" ` +
  `does not have (its views: ${quoted(known)}). Declare it in the "apps.views" option of ` +
  `that server ({ '${view}': { file } }) or with @McpAppView('${view}') on a provider ` +
  `method of the tool's group, or fix the name in @McpTool({ app: { view } }).`;

export const unusedViewMessage = (view: string, where: string, server: string): string =>
  `The view "${view}" (${where}) is shown by no tool of the MCP server "${server}": name it ` +
  `in a tool, @McpTool({ app: { view: '${view}' } }), or remove it. A view is published ` +
  `only with the tools it belongs to, and guarded like them.`;

export const duplicateViewMessage = (view: string, where: readonly string[]): string =>
  `The view "${view}" is declared twice, by ${where.join(' and ')}: a view has one HTML ` +
  `source. Keep one of them, or rename the other.`;

export const viewUriTakenMessage = (
  view: string,
  tools: readonly string[],
  uri: string,
  resource: string,
): string =>
  `The view "${view}" of the tool(s) ${quoted(tools)} is published at ${uri}, the URI of the ` +
  `resource "${resource}": rename the view (in the tools' @McpTool({ app: { view } }) too), ` +
  `or give the resource another URI.`;

export const invalidViewOptionsMessage = (where: string, problems: readonly string[]): string =>
  `The options of ${where} are not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`;
