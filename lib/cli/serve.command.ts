import { redirectConsoleToStderr } from '../transports/stdio/console.redirect.js';
import { bootstrapStdio } from '../transports/stdio/stdio.bootstrap.js';
import { parseHeaders, type CliArguments } from './cli.arguments.js';
import { loadModuleReference } from './module-reference.loader.js';

/**
 * `nestjs-mcp serve <module>`: the module's MCP server over stdio. The process ends when
 * stdin closes (exit code 0); until then the command does not return.
 *
 * Stdout carries MCP alone from before the app's file is imported: what its modules log
 * with `console` at their top level, or from a timer they start there, goes to stderr.
 */
export async function serveCommand(args: CliArguments): Promise<void> {
  const headers = parseHeaders(args.headers);
  const restoreConsole = redirectConsoleToStderr();
  try {
    const module = await loadModuleReference(args.module!);
    await bootstrapStdio(module, {
      ...(headers && { request: { headers } }),
      ...(args.server !== undefined && { server: args.server }),
      ...(args.locales?.[0] !== undefined && { locale: args.locales[0] }),
    });
  } catch (error) {
    restoreConsole();
    throw error;
  }
}
