import { readFile } from 'node:fs/promises';
import {
  appToolDeclarations,
  appToolsOf,
  type AppTool,
} from '../contract/app-tool.declarations.js';
import { selectServer } from '../transports/server.selector.js';
import type { CliArguments } from './cli.arguments.js';
import { openCliApp } from './cli-app.js';
import { CliUsageError, EXIT_FAILURE, EXIT_OK } from './cli-usage.error.js';
import { loadModuleReference } from './module-reference.loader.js';
import { writeOutput } from './output-file.js';
import { describeServer } from './server-catalog.js';

/**
 * `nestjs-mcp app-types <module> [--server <name>] [--out <file.d.ts> | --check <file.d.ts>]`
 * writes the TypeScript declarations of one server's app tools (the tools a view renders
 * or calls): their arguments and structured results, from the schemas they publish, and
 * the map `AppTools`. `--check` compares them with a written file, as CI does.
 */
export async function appTypesCommand(
  args: CliArguments,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const module = await loadModuleReference(args.module!);
  const { app, close } = await openCliApp(module);
  let server: string;
  let tools: AppTool[];
  try {
    const runtime = selectServer(app, args.server);
    server = runtime.options.name;
    // The server's own texts, whatever the machine's locale: the file is checked in.
    tools = appToolsOf(describeServer(runtime).tools);
  } finally {
    await close();
  }
  if (tools.length === 0) {
    throw new CliUsageError(
      `The MCP server "${server}" has no app tool: no tool names a view. ` +
        `Add app: { view } to @McpTool() (or app: { visibility: ['app'] } for a tool only views call).`,
    );
  }
  const text = appToolDeclarations(tools, { server, command: regenerateCommand(args) });
  if (args.check !== undefined) return checkDeclarations(args.check, text, out, err, args);
  const file = args.out ?? '-';
  if (!(await writeOutput(file, text, out))) return EXIT_OK;
  const names = tools.map(({ tool }) => tool.name).join(', ');
  out.write(
    `Wrote ${file}: ${tools.length} app tool${tools.length === 1 ? '' : 's'} (${names}).\n`,
  );
  return EXIT_OK;
}

/** `--check`: 0 when the file holds the declarations as they are now, else 1 and what to run. */
async function checkDeclarations(
  file: string,
  text: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  args: CliArguments,
): Promise<number> {
  let written: string;
  try {
    written = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(
      `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); write it first with --out ${file}.`,
    );
  }
  // Line endings are left to git: a checkout with CRLF holds the same declarations.
  if (written.replaceAll('\r\n', '\n') === text) {
    out.write(`${file}: no change.\n`);
    return EXIT_OK;
  }
  err.write(
    `nestjs-mcp: ${file} is not what the app tools publish now. Write it again with ` +
      `${regenerateCommand({ ...args, check: undefined, out: file })} and commit it.\n`,
  );
  return EXIT_FAILURE;
}

/** The command that writes the file, as its header shows it (`--check` is written `--out`). */
function regenerateCommand(args: CliArguments): string {
  const file = args.out ?? args.check;
  const words = [
    'nestjs-mcp',
    'app-types',
    args.module!,
    ...(args.server === undefined ? [] : ['--server', args.server]),
    ...(file === undefined || file === '-' ? [] : ['--out', file]),
  ];
  return words.map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: as it is when it is plain, else single-quoted. */
const shellWord = (word: string): string =>
  /^[\w./#:@=+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
