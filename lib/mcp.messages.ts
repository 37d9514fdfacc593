/** Message factories for bootstrap errors and warnings, so that every one says how to fix it. */

const OPTIONS_EXAMPLE = `McpModule.forRoot({
  name: 'catalog',
  version: '1.0.0',
  instructions: 'Tools to search and manage the product catalog.',
  http: { path: 'mcp', guards: [BearerTokenGuard] }, // or http: false
})`;

const ASYNC_OPTIONS_EXAMPLE = `McpModule.forRootAsync({
  imports: [ConfigModule],
  inject: [ConfigService],
  useFactory: (config: ConfigService) => ({
    name: 'catalog',
    version: config.getOrThrow('APP_VERSION'),
  }),
})`;

const STDIO_OPTIONS_EXAMPLE = `bootstrapStdio(AppModule, {
  request: { headers: { authorization: \`Bearer \${process.env.API_TOKEN}\` } },
  server: 'catalog', // with several McpModule servers
})`;

const problemList = (problems: readonly string[]): string =>
  problems.map((p) => `  - ${p}`).join('\n');

export const invalidOptionsMessage = (problems: string[]): string =>
  `Invalid McpModule options:\n${problemList(problems)}\n` +
  `A correct example:\n${OPTIONS_EXAMPLE}`;

export const invalidAsyncOptionsMessage = (problems: string[]): string =>
  `Invalid McpModule.forRootAsync() options:\n${problemList(problems)}\n` +
  `A correct example:\n${ASYNC_OPTIONS_EXAMPLE}`;

export const invalidStdioOptionsMessage = (problems: string[]): string =>
  `Invalid bootstrapStdio() options:\n${problemList(problems)}\n` +
  `A correct example:\n${STDIO_OPTIONS_EXAMPLE}`;

/**
 * An options key nobody reads, with the option it was most likely meant to be, or the
 * valid options of its level (`level`, `''` at the top) when no guess is close.
 */
export const unknownOptionMessage = (
  path: string,
  suggestion: string | undefined,
  level: string,
  validKeys: readonly string[],
): string =>
  `\`${path}\` is not an option; ` +
  (suggestion !== undefined
    ? `did you mean \`${suggestion}\`?`
    : `valid options ${level === '' ? '' : `of \`${level}\` `}are: ${validKeys.join(', ')}`);

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

// Discovery: what bootstrap cannot mean, said there rather than at the first call.

/** The kind of entry a message is about, with its name (a resource: its URI or template). */
export interface McpEntryLabel {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  readonly where: string;
}

const entryLabel = ({ kind, name, where }: McpEntryLabel): string =>
  `the ${kind} "${name}" (${where})`;

/** An arguments parameter typed `Object`: an interface, a type literal, `any` or a `Record`. */
export const untypedArgumentsMessage = (where: string, index: number): string =>
  `Parameter ${index} of ${where} has no DTO class (its type is Object): an interface or a ` +
  `type literal leaves no runtime type (TypeScript records Object for it, as for any and ` +
  `Record<...>), so no schema can be built from it and no call can be checked. Declare the ` +
  `arguments as a class whose properties have class-validator decorators (@IsString(), ` +
  `@IsInt(), ...), or keep the plain object type and give the raw JSON Schema with ` +
  `@McpTool({ inputSchema }).`;

/**
 * A method with parameters but no `design:paramtypes`: either the compiler emits no
 * metadata, or the method has no decorator of its own (TypeScript emits it only for those).
 */
export const missingParameterTypesMessage = (where: string, decorated: boolean): string =>
  decorated
    ? `${where} has parameters but no type metadata. Enable "emitDecoratorMetadata" (and ` +
      `"experimentalDecorators") in tsconfig.json, as Nest itself requires.`
    : `${where} has parameters but no type metadata: TypeScript records the parameter types ` +
      `of a method only when the method itself has a decorator, and this one has none ` +
      `(@McpTools() on the class does not count). Put @McpTool() on it, and check that ` +
      `"emitDecoratorMetadata" is enabled in tsconfig.json.`;

/** An arguments DTO without class-validator metadata: its schema has no properties. */
export const undecoratedDtoMessage = (dtoName: string, entry: McpEntryLabel): string => {
  const effect = {
    tool:
      'takes no arguments: its input schema has no properties, and every call that passes ' +
      'one is refused',
    prompt:
      'takes no arguments: prompts/list shows none, and every request that passes one is refused',
    resource: 'takes no URI variables: every read of a URI that has one is refused',
  }[entry.kind];
  const alternative = {
    tool:
      ' For a schema a DTO cannot express, type the parameter as a plain object and give ' +
      '@McpTool({ inputSchema }).',
    prompt: '',
    resource:
      ' To take the variables unchecked, type the parameter as a plain object ' +
      '(an interface or Record<string, string>).',
  }[entry.kind];
  return (
    `${dtoName} has no class-validator decorators, so ${entryLabel(entry)} ${effect} ` +
    `("property ... is not allowed; allowed properties: (none)"). TypeScript keeps no trace ` +
    `of a property without a decorator: give each property of ${dtoName} its rules ` +
    `(@IsString(), @IsInt(), @IsOptional(), @ValidateNested(), ...).${alternative} If it ` +
    `takes nothing on purpose, drop the parameter.`
  );
};

/** Prompt arguments typed as a plain object: nothing to list, nothing to check. */
export const untypedPromptArgumentsMessage = (name: string, where: string): string =>
  `${entryLabel({ kind: 'prompt', name, where })} takes its arguments as a plain object: an ` +
  `interface or a type literal leaves no runtime type, so prompts/list shows no arguments ` +
  `and none is checked. Declare them as a class whose properties have class-validator ` +
  `decorators (@IsString(), @IsOptional(), ...).`;

/** What a server that publishes nothing was given to work with. */
export interface EmptyServerReport {
  readonly server: string;
  /** `describeScope()` of the server. */
  readonly scope: string;
  /** The class names of the app's providers and controllers that were scanned. */
  readonly providers: readonly string[];
  readonly controllers: readonly string[];
  /** Entries the app publishes on other servers, by membership: `2 in group "catalog"`. */
  readonly elsewhere: readonly string[];
  /** Entries of this server kept off MCP with `@McpHidden()` or `{ hidden }`. */
  readonly hidden: number;
}

const MAX_LISTED_NAMES = 10;

const countedNames = (noun: string, names: readonly string[]): string => {
  const counted = `${names.length} ${noun}${names.length === 1 ? '' : 's'}`;
  if (names.length === 0) return counted;
  const listed = names.slice(0, MAX_LISTED_NAMES).join(', ');
  const more = names.length - MAX_LISTED_NAMES;
  return `${counted} (${listed}${more > 0 ? `, and ${more} more` : ''})`;
};

export const emptyServerMessage = (report: EmptyServerReport): string => {
  const causes = [
    `the class is not in the "providers" (or "controllers") of a module the app imports`,
    `its methods lack @McpTool(), @McpPrompt() or @McpResource() (or the class lacks @McpTools())`,
    report.elsewhere.length > 0
      ? `the entries belong to other servers: ${report.elsewhere.join('; ')} (@McpGroup() on ` +
        `the class, group/version on the method; a server's own comes from ` +
        `McpModule.forRoot({ group, groupVersion }))`
      : undefined,
    report.hidden > 0
      ? `${report.hidden} of its methods ${report.hidden === 1 ? 'is' : 'are'} hidden ` +
        `(@McpHidden() or { hidden })`
      : undefined,
  ].filter((cause) => cause !== undefined);
  return (
    `MCP server "${report.server}" publishes nothing: it serves ${report.scope}, and the scan ` +
    `found none. Scanned ${countedNames('provider', report.providers)} and ` +
    `${countedNames('controller', report.controllers)} of the app's modules. Likely causes:\n` +
    `${problemList(causes)}\n` +
    `If this server's entries are added at run time (McpServerHost#addTool()), ignore this.`
  );
};

// Routes as tools: a controller route's @Param(), @Query() and @Body() as one arguments object.

/** Two parameters of a route give the tool the same argument name. */
export const duplicateRouteArgumentMessage = (
  where: string,
  name: string,
  first: string,
  second: string,
): string =>
  `${where} is published as a tool whose arguments are one flat object made of the route's ` +
  `@Param(), @Query() and @Body(), and the argument "${name}" comes from both ${first} and ` +
  `${second}. Give each name one source: rename one of them, leave the property out of the ` +
  `DTO (OmitType() of @nestjs/mapped-types or @nestjs/swagger), or keep the route off MCP ` +
  `with @McpHidden('why').`;

/** `@Param()`, `@Query()` or `@Body()` of a whole object that is not a DTO class. */
export const untypedRouteObjectMessage = (
  where: string,
  index: number,
  decorator: string,
  typeName: string,
): string =>
  `Parameter ${index} of ${where} takes the whole ${decorator} object, but its type is ` +
  `${typeName}, not a DTO class, so the tool's schema cannot list its properties. Declare it ` +
  `as a class with class-validator decorators, or take each value by name ` +
  `(${decorator.replace('()', "('name')")}).`;

/** A route parameter without a decorator: over HTTP it gets nothing, and so would a tool. */
export const undecoratedRouteParameterMessage = (where: string, index: number): string =>
  `Parameter ${index} of ${where} has no parameter decorator. The route is published as a ` +
  `tool whose arguments are its @Param(), @Query() and @Body() parameters: decorate this one ` +
  `(@Body(), @Query('name'), @McpContext(), @Req()...) or remove it.`;

/** `inputSchema` on a route whose parameters already state the schema. */
export const routeInputSchemaMessage = (where: string): string =>
  `${where} has the "inputSchema" option of @McpTool(), but it is a route whose @Param(), ` +
  `@Query() and @Body() parameters are the tool's arguments and their schema. Drop the ` +
  `option, or take the arguments as one DTO (@Body() dto) to publish a hand-written schema.`;

/** Two DTOs of one route tool whose nested classes share a name but not a schema. */
export const conflictingRouteDefsMessage = (where: string, key: string): string =>
  `${where}: two DTOs of the route's parameters use two different nested classes named ` +
  `"${key}", and the tool's schema lists nested classes by name in "$defs". Rename one class.`;

/** An argument named by the `arguments` option that no route parameter gives. */
export const unknownRouteArgumentOptionMessage = (
  where: string,
  name: string,
  known: readonly string[],
): string =>
  `The "arguments" option of ${where} names "${name}", which no @Param(), @Query() or ` +
  `@Body() of the route gives. Its arguments: ${known.join(', ') || '(none)'}.`;

/** A route parameter an MCP call has nothing for (`@Res()`, `@Session()`, `@UploadedFile()`...). */
export const unsupportedRouteParameterMessage = (
  where: string,
  index: number,
  decorator: string,
): string =>
  `Parameter ${index} of ${where} has ${decorator}, which an MCP call has nothing for. A route ` +
  `published as a tool takes @Param(), @Query(), @Body(), @Headers(), @Req(), @McpContext() ` +
  `and custom parameter decorators. Keep this route off MCP with @McpHidden('why'), or ` +
  `drop the parameter.`;

export const notInitialisedMessage = (): string =>
  'The MCP server is not initialised yet: call app.init() (or app.listen()) first.';

export const manifestUriTakenMessage = (server: string, uri: string): string =>
  `The manifest of the MCP server "${server}" would be published at ${uri}, which a ` +
  `resource of the app already uses. Give the manifest another URI with ` +
  `manifest: 'mcp://${server}/system/manifest', or move the resource.`;

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
