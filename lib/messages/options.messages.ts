/**
 * The messages of invalid options: of `McpModule.forRoot()`, `McpModule.forRootAsync()` and
 * `bootstrapStdio()`, each with a correct example, and of an options key nobody reads.
 */

import { bulletList } from './bullet-list.js';

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

export const invalidOptionsMessage = (problems: string[]): string =>
  `Invalid McpModule options:\n${bulletList(problems)}\n` +
  `A correct example:\n${OPTIONS_EXAMPLE}`;

export const invalidAsyncOptionsMessage = (problems: string[]): string =>
  `Invalid McpModule.forRootAsync() options:\n${bulletList(problems)}\n` +
  `A correct example:\n${ASYNC_OPTIONS_EXAMPLE}`;

export const invalidStdioOptionsMessage = (problems: string[]): string =>
  `Invalid bootstrapStdio() options:\n${bulletList(problems)}\n` +
  `A correct example:\n${STDIO_OPTIONS_EXAMPLE}`;

/**
 * `auth` on the HTTP endpoint with nothing that fixes the resource: the bootstrap cannot
 * know where the app will listen, and a `Host` (or `X-Forwarded-Host`) header must not
 * choose the audience tokens are checked against.
 */
export const authResourceRequiredMessage = (): string =>
  '"auth.resource" is required on the HTTP endpoint: the URL clients connect to, which ' +
  "tokens must name in aud. Set auth.resource: 'https://<your host>/mcp' (recommended), or " +
  "list the hosts this server answers to in http.allowedHosts (such as ['mcp.example.com']): " +
  "the resource is then derived from a request's Host only when it is in that list. A " +
  'request header must not choose the audience of the tokens this server accepts.';

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
