import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-usage.error.js';

export type CliCommandName = 'list' | 'call' | 'serve' | 'contract' | 'server-json' | 'app-types';

/** A parsed command line. */
export interface CliArguments {
  readonly command?: CliCommandName;
  readonly help: boolean;
  /** `<module-file>#<ExportName>`. */
  readonly module?: string;
  readonly tool?: string;
  readonly json: boolean;
  /** list: also the methods kept off MCP (`@McpHidden()`, `{ hidden }`), with their reasons. */
  readonly hidden?: boolean;
  readonly args?: string;
  readonly headers: readonly string[];
  readonly server?: string;
  /** contract: one `--as` per caller, as typed (`reader=Authorization: Bearer x`). */
  readonly callers?: readonly string[];
  /** contract: the `--locale` labels, as typed; list, call, serve: the one locale. */
  readonly locales?: readonly string[];
  /** contract, server-json, app-types: the file to write (`-` for stdout). */
  readonly out?: string;
  /** contract, app-types: the file to compare with. */
  readonly check?: string;
  /** server-json: the endpoint's public URL, absolute. */
  readonly url?: string;
}

const COMMANDS: readonly CliCommandName[] = [
  'list',
  'call',
  'serve',
  'contract',
  'server-json',
  'app-types',
];
const COMMAND_LIST = 'list, call, serve, contract, server-json or app-types';
const HELP_HINT = 'Run nestjs-mcp --help for the commands and options.';

/** Reads the command line with Node's `util.parseArgs`; a mistake is a {@link CliUsageError}. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  const { values, positionals } = readCommandLine(argv);
  const [command, module, tool] = positionals;
  const result: CliArguments = {
    help: values.help,
    json: values.json,
    headers: values.header,
    ...(command !== undefined && { command: command as CliCommandName }),
    ...(module !== undefined && { module }),
    ...(tool !== undefined && { tool }),
    ...(values.args !== undefined && { args: values.args }),
    ...(values.server !== undefined && { server: values.server }),
    ...(values.as.length > 0 && { callers: values.as }),
    ...(values.locale.length > 0 && { locales: values.locale }),
    ...(values.out !== undefined && { out: values.out }),
    ...(values.check !== undefined && { check: values.check }),
    ...(values.url !== undefined && { url: values.url }),
    ...(values.hidden && { hidden: true }),
  };
  // With --help nothing else is needed, so nothing else is checked.
  if (values.help) return result;
  checkFlagsFitCommand(values, checkPositionals(positionals));
  return result;
}

/** The flags and positionals, as `util.parseArgs` reads them (strict: unknown flags throw). */
function readCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        hidden: { type: 'boolean', default: false },
        args: { type: 'string' },
        header: { type: 'string', multiple: true, default: [] },
        server: { type: 'string' },
        as: { type: 'string', multiple: true, default: [] },
        locale: { type: 'string', multiple: true, default: [] },
        out: { type: 'string' },
        check: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // parseArgs explains itself ("Unknown option '--x'"); keep its first sentence.
    throw new CliUsageError(`${(error as Error).message.split('. ')[0]}. ${HELP_HINT}`);
  }
}

type CliValues = ReturnType<typeof readCommandLine>['values'];

/**
 * The command and its module, once the positionals are known to fit the command: a known
 * command, a module, the tool for `call` and nothing more.
 */
function checkPositionals(positionals: readonly string[]): {
  command: CliCommandName;
  module: string;
} {
  const [command, module, tool, ...extra] = positionals;
  if (command === undefined)
    throw new CliUsageError(`Give a command: ${COMMAND_LIST}. ${HELP_HINT}`);
  if (!COMMANDS.includes(command as CliCommandName)) {
    throw new CliUsageError(`Unknown command "${command}": use ${COMMAND_LIST}. ${HELP_HINT}`);
  }
  if (module === undefined) {
    throw new CliUsageError(
      `Give the module: nestjs-mcp ${command} <module-file>#<ExportName>, for example dist/app.module.js#AppModule.`,
    );
  }
  if (command === 'call' && tool === undefined) {
    throw new CliUsageError(
      `Give the tool to call: nestjs-mcp call ${module} <tool> --args '<json>' (nestjs-mcp list ${module} shows the tools).`,
    );
  }
  const unexpected = command === 'call' ? extra[0] : tool;
  if (unexpected !== undefined) {
    throw new CliUsageError(`Unexpected argument "${unexpected}". ${HELP_HINT}`);
  }
  return { command: command as CliCommandName, module };
}

/** Refuses a flag given to a command that does not read it. */
function checkFlagsFitCommand(
  values: CliValues,
  { command, module }: { command: CliCommandName; module: string },
): void {
  if (values.hidden && command !== 'list') {
    throw new CliUsageError(`--hidden is for the list command. ${HELP_HINT}`);
  }
  if (values.args !== undefined && command !== 'call') {
    throw new CliUsageError(`--args is for the call command. ${HELP_HINT}`);
  }
  if (values.url !== undefined && command !== 'server-json') {
    throw new CliUsageError(`--url is for the server-json command. ${HELP_HINT}`);
  }
  if (command === 'contract') checkContractArguments(values, module);
  else if (command === 'server-json') checkServerJsonArguments(values, module);
  else if (command === 'app-types') checkAppTypesArguments(values, module);
  else {
    checkSingleLocale(values.locale);
    for (const flag of ['as', 'out', 'check'] as const) {
      const value = values[flag];
      if (Array.isArray(value) ? value.length > 0 : value !== undefined) {
        throw new CliUsageError(
          `--${flag} is for the contract command${flag === 'as' ? '' : flag === 'out' ? ' (and server-json, app-types)' : ' (and app-types)'}. ${HELP_HINT}`,
        );
      }
    }
  }
}

/**
 * server-json: `--url`, the endpoint's absolute public URL, which the file publishes (so it
 * holds no credentials), and none of the flags of a caller or of the other commands.
 */
function checkServerJsonArguments(values: CliValues, module: string): void {
  const example = `nestjs-mcp server-json ${module} --url https://mcp.example.com/mcp`;
  if (values.url === undefined) {
    throw new CliUsageError(
      `Give --url, the public URL of the MCP endpoint as clients reach it, for example ${example}.`,
    );
  }
  const url = URL.canParse(values.url) ? new URL(values.url) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.hash !== '' || /\s/.test(values.url)) {
    throw new CliUsageError(
      `--url needs an absolute http(s) URL without a fragment, for example ${example} (got "${values.url}").`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new CliUsageError(
      `--url holds credentials, which server.json would publish: give the URL alone and declare the header clients send in discovery.headers.`,
    );
  }
  if (values.out === '') throw new CliUsageError('--out needs a file name.');
  const other = [
    values.header.length > 0 && 'header',
    values.as.length > 0 && 'as',
    values.locale.length > 0 && 'locale',
    values.check !== undefined && 'check',
    values.json && 'json',
  ].find(Boolean);
  if (other) {
    throw new CliUsageError(`--${other} is not for the server-json command. ${HELP_HINT}`);
  }
}

/**
 * app-types: `--out` or `--check` (not both), and none of the flags of a caller or of a
 * locale: the declarations follow the schemas, which are the same for every caller.
 */
function checkAppTypesArguments(values: CliValues, module: string): void {
  if (values.out !== undefined && values.check !== undefined) {
    throw new CliUsageError(
      `Give --out or --check, not both: --out writes the declarations, --check compares them with a written file (nestjs-mcp app-types ${module} --check src/app-tools.d.ts).`,
    );
  }
  if (values.out === '' || values.check === '') {
    throw new CliUsageError(`--${values.out === '' ? 'out' : 'check'} needs a file name.`);
  }
  const other = [
    values.header.length > 0 && 'header',
    values.as.length > 0 && 'as',
    values.locale.length > 0 && 'locale',
    values.json && 'json',
  ].find(Boolean);
  if (other) {
    throw new CliUsageError(`--${other} is not for the app-types command. ${HELP_HINT}`);
  }
}

/** A BCP 47 language tag in its common shape (`de`, `en-US`, `zh-Hant-TW`), or `default`. */
const LOCALE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

function checkContractArguments(
  values: { out?: string; check?: string; header: string[]; json: boolean; locale: string[] },
  module: string,
): void {
  if ((values.out === undefined) === (values.check === undefined)) {
    throw new CliUsageError(
      values.out === undefined
        ? `Give --out <file> to write the contract or --check <file> to compare with it, for example nestjs-mcp contract ${module} --out mcp-contract.json.`
        : `Give --out or --check, not both: --out writes the contract, --check compares the module with a written one.`,
    );
  }
  if (values.out === '' || values.check === '') {
    throw new CliUsageError(`--${values.out === '' ? 'out' : 'check'} needs a file name.`);
  }
  if (values.header.length > 0) {
    throw new CliUsageError(
      `The contract command takes its callers with --as, one per caller (--as 'Authorization: Bearer <token>', or --as reader='Authorization: Bearer <token>' to name it), not --header.`,
    );
  }
  if (values.json) {
    throw new CliUsageError(
      `--json is for list and call; the contract is always JSON. ${HELP_HINT}`,
    );
  }
  const seen = new Set<string>();
  for (const locale of values.locale) {
    if (!LOCALE.test(locale)) {
      throw new CliUsageError(
        `--locale needs a language tag such as de or en-US, or default for the server's own texts (got "${locale}").`,
      );
    }
    if (seen.has(locale.toLowerCase())) {
      throw new CliUsageError(`--locale ${locale} is given twice; give each locale once.`);
    }
    seen.add(locale.toLowerCase());
  }
}

/** list, call and serve take one `--locale` (the language of the server's texts). */
function checkSingleLocale(locales: readonly string[]): void {
  if (locales.length > 1) {
    throw new CliUsageError(
      `--locale is given ${locales.length} times; list, call and serve take one (contract takes several).`,
    );
  }
  const [locale] = locales;
  if (locale !== undefined && !LOCALE.test(locale)) {
    throw new CliUsageError(`--locale needs a language tag such as de or en-US (got "${locale}").`);
  }
}

/** Turns `--header "Name: value"` flags into lower-cased request headers. */
export function parseHeaders(headers: readonly string[]): Record<string, string> | undefined {
  if (headers.length === 0) return undefined;
  const result: Record<string, string> = {};
  for (const header of headers) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !name) {
      throw new CliUsageError(
        `--header needs "Name: value", for example --header "Authorization: Bearer <token>" (got "${header}").`,
      );
    }
    result[name.toLowerCase()] = header.slice(colon + 1).trim();
  }
  return result;
}

/** Reads `--args`: a JSON object, `{}` when absent. */
export function parseToolArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `--args is not valid JSON (${(error as Error).message}); quote it for the shell, for example --args '{"name":"value"}'.`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliUsageError(`--args must be a JSON object, for example --args '{"name":"value"}'.`);
  }
  return value as Record<string, unknown>;
}
