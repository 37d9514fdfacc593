/**
 * The messages about the names of what a server publishes: tool and prompt names, the
 * `naming` option that makes them, tool aliases, and names two entries share.
 */

export const invalidToolNameMessage = (name: string, where: string): string =>
  `The tool name "${name}" of ${where} is not allowed: tool names must match ` +
  `^[a-zA-Z0-9_.-]{1,128}$ (letters, digits, "_", "-" and "." only, at most 128 characters). ` +
  `Give a valid name with @McpTool({ name: 'my_tool' }).`;

export const invalidPromptNameMessage = (name: string, where: string): string =>
  `The prompt name "${name}" of ${where} is not allowed: use letters, digits, "_", "-" ` +
  `and "." (at most 128 characters), e.g. @McpPrompt({ name: 'my_prompt' }).`;

export const duplicateToolNameMessage = (name: string, where: string[]): string =>
  `The tool name "${name}" is used by ${where.join(' and ')}. Tool names must be unique per ` +
  `server: rename one with @McpTool({ name: '...' }).`;

/** Two entries of one server with the same prompt name or resource URI (`what`). */
export const duplicateNameMessage = (what: string, key: string, where: string[]): string =>
  `The ${what} "${key}" is used by ${where.join(' and ')}. It must be unique per server.`;

/** The `naming` option threw for a method. */
export const namingFailedMessage = (where: string, detail: string): string =>
  `The "naming" option of McpModule failed for ${where}: ${detail}. ` +
  `Fix the function, or give the tool a name with @McpTool({ name }).`;

/** The `naming` option returned something that is not a tool name. */
export const invalidNamingResultMessage = (name: unknown, where: string): string =>
  `The "naming" option of McpModule returned ${JSON.stringify(name)} for ${where}, ` +
  `which is not a tool name: names must match ^[a-zA-Z0-9_.-]{1,128}$ (letters, digits, ` +
  `"_", "-" and "." only, at most 128 characters). Fix the function, or give the tool ` +
  `a name with @McpTool({ name }).`;

export const aliasesNotAnArrayMessage = (where: string, aliases: unknown): string =>
  `The "aliases" of ${where} must be an array of former names, such as ` +
  `aliases: ['Catalog.search'] (got ${JSON.stringify(aliases)}).`;

export const invalidAliasMessage = (alias: unknown, where: string): string =>
  `The alias ${JSON.stringify(alias)} of ${where} is not allowed: aliases follow the ` +
  `tool-name pattern ^[a-zA-Z0-9_.-]{1,128}$ (letters, digits, "_", "-" and ".").`;

/** An alias listed twice, or that is the tool's own name (`isOwnName`). */
export const repeatedAliasMessage = (alias: string, where: string, isOwnName: boolean): string =>
  `The alias "${alias}" of ${where} is ${isOwnName ? "the tool's own name" : 'given twice'}: ` +
  `list each former name once, and not the current one.`;

/** An alias that is also the name (`as`: `name`) or an alias of another tool of the server. */
export const aliasTakenMessage = (
  alias: string,
  where: string,
  owner: { readonly where: string; readonly as: string },
): string =>
  `The tool alias "${alias}" of ${where} is also the ${owner.as} of a tool of ` +
  `${owner.where}. Names and aliases must be unique per server: drop or rename one.`;
