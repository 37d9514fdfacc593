/**
 * The messages of the bootstrap scan about the MCP decorators of a method and their options:
 * what a method publishes, its description, its group and version, `@McpHidden()`, the
 * `task`, `arguments` and `inputSchema` options of a tool, the URI of a resource.
 */

export const missingDescriptionMessage = (name: string, where: string): string =>
  `The tool "${name}" (${where}) has no description, so models must guess what it does. ` +
  `Add @McpTool({ description: '...' }) or @ApiOperation({ description: '...' }).`;

/** A configuration mistake found inside one method's options, prefixed with the method. */
export const inMethodMessage = (where: string, message: string): string => `${where}: ${message}`;

export const hiddenWithoutReasonMessage = (where: string): string =>
  `${where} is hidden from MCP without a reason. Say why, for the next reader: ` +
  `@McpHidden('Charges the card; only checkout may call it.').`;

/** A method named at run time (`McpServerHost#addTool()`...) that the provider lacks. */
export const noSuchMethodMessage = (className: string, methodName: string): string =>
  `${className} has no method "${methodName}".`;

export const severalDecoratorsMessage = (where: string): string =>
  `${where} has more than one of @McpTool(), @McpPrompt(), @McpResource(), ` +
  `@McpCompletion() and @McpMethod(): a method publishes one thing; split it in two methods.`;

export const invalidGroupVersionMessage = (where: string, version: unknown): string =>
  `${where}: a group version must be a non-empty string or a non-empty list of them, ` +
  `such as version: '2' or version: ['1', '2'] (got ${JSON.stringify(version)}).`;

/** `@McpGroup()` on a class without a group name. */
export const missingGroupNameMessage = (where: string, group: unknown): string =>
  `${where}: @McpGroup() needs a group name, such as @McpGroup('catalog') ` +
  `(got ${JSON.stringify(group)}).`;

/** The `group` option of a method that is not a group name. */
export const invalidGroupMessage = (where: string, group: unknown): string =>
  `${where}: "group" must be a non-empty string such as 'catalog' ` +
  `(got ${JSON.stringify(group)}).`;

export const versionWithoutGroupMessage = (where: string, version: unknown): string =>
  `${where} has a version (${JSON.stringify(version)}) but no group: versions belong ` +
  `to a group. Add one: @McpGroup('catalog', { version }) on the class or ` +
  `{ group: 'catalog', version } on the method.`;

/** The `task` option of `@McpTool()`, with what is wrong with it (`problem`). */
export const invalidTaskOptionMessage = (where: string, problem: string): string =>
  `${where}: the "task" option of @McpTool() is invalid: ${problem}. Use task: 'optional', ` +
  `task: 'required' or task: { mode: 'optional', ttlMs: 600_000 }.`;

export const argumentsOptionWithoutDtoMessage = (where: string): string =>
  `${where} has the "arguments" option of @McpTool() but takes no arguments DTO: the ` +
  `option describes properties of the DTO. Add the DTO parameter, or drop the option.`;

export const inputSchemaWithDtoMessage = (where: string): string =>
  `${where} has both an arguments DTO and the "inputSchema" option of @McpTool(): ` +
  `keep one (the DTO is the schema; "inputSchema" is for arguments a DTO cannot express).`;

export const missingResourceSchemeMessage = (where: string): string =>
  `${where}: @McpResource() needs a "uri" with a scheme, such as ` +
  `'catalog://categories' or the template 'catalog://products/{sku}'.`;

/** Properties of a resource's variables DTO that its URI template does not have. */
export const unknownTemplateVariablesMessage = (
  where: string,
  dtoName: string,
  missing: readonly string[],
  uri: string,
  variableNames: readonly string[],
): string =>
  `${where}: the variables DTO ${dtoName} declares ${missing.map((n) => `"${n}"`).join(', ')}, ` +
  `which the URI template "${uri}" does not have (its variables: ` +
  `${variableNames.join(', ') || 'none'}).`;

export const invalidUriTemplateMessage = (uri: string, detail: string): string =>
  `the URI template "${uri}" is not valid RFC 6570: ${detail}`;

export const invalidToolLimitsMessage = (where: string, problems: readonly string[]): string =>
  `${where}: the limits of @McpTool() are invalid (use such as timeoutMs: 30_000, ` +
  `concurrency: 4 or concurrency: { max: 4, perCaller: 1, queue: 8 }): ${problems.join('; ')}`;
