import { listServers, selectServer } from '../transports/server.selector.js';
import type { CliArguments } from './cli.arguments.js';
import { openCliApp } from './cli-app.js';
import { EXIT_OK } from './cli-usage.error.js';
import { formatCatalogs } from './catalog.formatter.js';
import { loadModuleReference } from './module-reference.loader.js';
import { describeServer } from './server-catalog.js';
import { environmentLocale } from '../localization/locale.negotiator.js';

/**
 * `nestjs-mcp list <module>`: every server (or `--server`), its tools and their schemas;
 * with `--hidden`, also the methods kept off MCP and the reasons given.
 */
export async function listCommand(args: CliArguments, out: NodeJS.WritableStream): Promise<number> {
  const module = await loadModuleReference(args.module!);
  const { app, close } = await openCliApp(module);
  try {
    const servers = args.server === undefined ? listServers(app) : [selectServer(app, args.server)];
    // selectServer explains an app without a server.
    if (servers.length === 0) selectServer(app);
    const locale = args.locales?.[0] ?? environmentLocale();
    const catalogs = servers.map((server) => describeServer(server, args.hidden === true, locale));
    out.write(
      args.json
        ? `${JSON.stringify({ servers: catalogs }, null, 2)}\n`
        : formatCatalogs(catalogs, Math.max(60, Math.min(process.stdout.columns || 100, 120))),
    );
    return EXIT_OK;
  } finally {
    await close();
  }
}
