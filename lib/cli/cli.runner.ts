import { CallerRefusedError, MCP_AUTHORIZATION_ENV } from '../transports/caller.authenticator.js';
import { InProcessRequestError } from './in-process.requester.js';
import { ServerSelectionError } from '../transports/server.selector.js';
import { appTypesCommand } from './app-types.command.js';
import { callCommand } from './call.command.js';
import { contractCommand } from './contract.command.js';
import { parseCliArguments } from './cli.arguments.js';
import { CliUsageError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './cli-usage.error.js';
import { CLI_USAGE } from './cli.usage.js';
import { listCommand } from './list.command.js';
import { serveCommand } from './serve.command.js';
import { serverJsonCommand } from './server-json.command.js';

/**
 * Runs one command line and returns the exit code, or `undefined` while `serve` keeps the
 * process serving (it exits by itself when stdin closes).
 */
export async function runCli(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number | undefined> {
  try {
    const args = parseCliArguments(argv);
    if (args.help) {
      out.write(CLI_USAGE);
      return EXIT_OK;
    }
    switch (args.command) {
      case 'list':
        return await listCommand(args, out);
      case 'call':
        return await callCommand(args, out, err);
      case 'contract':
        return await contractCommand(args, out, err);
      case 'server-json':
        return await serverJsonCommand(args, out, err);
      case 'app-types':
        return await appTypesCommand(args, out, err);
      case 'serve':
        await serveCommand(args);
        return undefined;
      default:
        throw new CliUsageError(
          'Give a command: list, call, serve, contract, server-json or app-types.',
        );
    }
  } catch (error) {
    const [code, message] = explain(error);
    err.write(`nestjs-mcp: ${message}\n`);
    return code;
  }
}

/** Mistakes in what was typed: one line and exit code 2. Anything else: the app failed, 1. */
function explain(error: unknown): [number, string] {
  if (error instanceof CliUsageError) return [EXIT_USAGE, error.message];
  if (error instanceof ServerSelectionError) {
    // The selector's message already says which names to pass; an app without a server may
    // be one whose nestjs-mcp copy differs from the CLI's.
    const hint =
      error.kind === 'none'
        ? ' If it does, run the nestjs-mcp installed with the app (npx nestjs-mcp in its folder), so that both use one copy of the library.'
        : '';
    return [EXIT_USAGE, `${error.message}${hint}`];
  }
  if (error instanceof CallerRefusedError) {
    return [
      EXIT_USAGE,
      `The caller was refused by ${error.guard}: ${error.reason}. Pass its credentials with --header "Authorization: Bearer <token>" or in ${MCP_AUTHORIZATION_ENV}.`,
    ];
  }
  if (error instanceof InProcessRequestError) {
    return [EXIT_FAILURE, `The server answered with error ${error.code}: ${error.message}`];
  }
  return [EXIT_FAILURE, (error as Error)?.stack ?? String(error)];
}
