import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-usage.error.js';

export type CliCommandName = 'list' | 'call' | 'serve';

/** A parsed command line. */
export interface CliArguments {
  readonly command?: CliCommandName;
  readonly help: boolean;
  /** `<module-file>#<ExportName>`. */
  readonly module?: string;
  readonly tool?: string;
  readonly json: boolean;
  readonly args?: string;
  readonly headers: readonly string[];
  readonly server?: string;
}

const COMMANDS: readonly CliCommandName[] = ['list', 'call', 'serve'];
const HELP_HINT = 'Run nestjs-mcp --help for the commands and options.';

/** Reads the command line with Node's `util.parseArgs`; a mistake is a {@link CliUsageError}. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        args: { type: 'string' },
        header: { type: 'string', multiple: true, default: [] },
        server: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // parseArgs explains itself ("Unknown option '--x'"); keep its first sentence.
    throw new CliUsageError(`${(error as Error).message.split('. ')[0]}. ${HELP_HINT}`);
  }
  const { values, positionals } = parsed;
  const [command, module, tool, ...extra] = positionals;
  const result: CliArguments = {
    help: values.help,
    json: values.json,
    headers: values.header,
    ...(command !== undefined && { command: command as CliCommandName }),
    ...(module !== undefined && { module }),
    ...(tool !== undefined && { tool }),
    ...(values.args !== undefined && { args: values.args }),
    ...(values.server !== undefined && { server: values.server }),
  };
  if (values.help) return result;
  if (command === undefined)
    throw new CliUsageError(`Give a command: list, call or serve. ${HELP_HINT}`);
  if (!COMMANDS.includes(command as CliCommandName)) {
    throw new CliUsageError(`Unknown command "${command}": use list, call or serve. ${HELP_HINT}`);
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
  if (values.args !== undefined && command !== 'call') {
    throw new CliUsageError(`--args is for the call command. ${HELP_HINT}`);
  }
  return result;
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
