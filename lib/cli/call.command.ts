import { authenticateCaller, resolveCallerRequest } from '../transports/caller.authenticator.js';
import { InProcessRequester } from './in-process.requester.js';
import { selectServer } from '../transports/server.selector.js';
import { parseHeaders, parseToolArguments, type CliArguments } from './cli.arguments.js';
import { openCliApp } from './cli-app.js';
import { CliUsageError, EXIT_FAILURE, EXIT_OK } from './cli-usage.error.js';
import { formatCallResult } from './call-result.formatter.js';
import { loadModuleReference } from './module-reference.loader.js';
import { environmentLocale } from '../localization/locale.negotiator.js';

/**
 * `nestjs-mcp call <module> <tool> --args '<json>'`: one `tools/call` through an in-process
 * MCP connection, so the call takes the same path as over HTTP or stdio (guards,
 * interceptors, pipes, filters, result mapping). Exit code 1 when the result is `isError`.
 */
export async function callCommand(
  args: CliArguments,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  // The command line is checked before the app starts.
  const toolArguments = parseToolArguments(args.args);
  const headers = parseHeaders(args.headers);
  const module = await loadModuleReference(args.module!);
  const { app, close } = await openCliApp(module);
  try {
    const server = selectServer(app, args.server);
    // A deprecated alias is called like the tool (and logged as deprecated) but never listed.
    if (server.tool(args.tool!) === undefined) {
      const names = server.published().tools.map((tool) => tool.name);
      throw new CliUsageError(
        `Unknown tool "${args.tool}" on the server ${server.options.name}; its tools are: ${names.join(', ') || '(none)'}.`,
      );
    }
    const request = await resolveCallerRequest(headers && { headers });
    await authenticateCaller(app, server, request);
    // The language of the server's texts: --locale, else the environment's (docs/i18n.md).
    const locale = args.locales?.[0] ?? environmentLocale();
    const requester = await InProcessRequester.connect(server, {
      request,
      ...(locale !== undefined && { locale }),
    });
    let result: Record<string, any>;
    try {
      result = await requester.request('tools/call', {
        name: args.tool,
        arguments: toolArguments,
      });
    } finally {
      await requester.close();
    }
    if (args.json) out.write(`${JSON.stringify(result, null, 2)}\n`);
    else (result.isError ? err : out).write(formatCallResult(result));
    return result.isError ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await close();
  }
}
