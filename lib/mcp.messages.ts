/** Message factories for bootstrap errors and warnings, so that every one says how to fix it. */

const OPTIONS_EXAMPLE = `McpModule.forRoot({
  name: 'catalog',
  version: '1.0.0',
  instructions: 'Tools to search and manage the product catalog.',
  http: { path: 'mcp', guards: [BearerTokenGuard] }, // or http: false
})`;

export const invalidOptionsMessage = (problems: string[]): string =>
  `Invalid McpModule options:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
  `A correct example:\n${OPTIONS_EXAMPLE}`;

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

export const missingDescriptionMessage = (name: string, where: string): string =>
  `The tool "${name}" (${where}) has no description, so models must guess what it does. ` +
  `Add @McpTool({ description: '...' }) or @ApiOperation({ description: '...' }).`;

export const unsupportedParameterMessage = (where: string, index: number, what: string): string =>
  `Parameter ${index} of ${where} ${what}. A tool method takes its arguments as one ` +
  `class-validator DTO parameter (undecorated, or with @Body()/@Query()), plus parameters ` +
  `with @McpContext(), @Req() or a custom parameter decorator.`;
