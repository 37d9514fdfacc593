import { protectedResourceMetadataUrl } from '../oauth/protected-resource-metadata.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import {
  registryServerJson,
  registryVersionProblem,
  type ServerJsonResult,
} from '../transports/http/server-json.js';
import { selectServer } from '../transports/server.selector.js';
import type { CliArguments } from './cli.arguments.js';
import { openCliApp } from './cli-app.js';
import { writeOutput } from './output-file.js';
import { CliUsageError, EXIT_OK } from './cli-usage.error.js';
import { loadModuleReference } from './module-reference.loader.js';

/** Where the file goes without `--out`: where `mcp-publisher publish` reads it. */
const DEFAULT_OUT = 'server.json';

/**
 * `nestjs-mcp server-json <module> --url <endpoint URL>` writes the `server.json` of one
 * server (`--server` when the module has several) for the MCP Registry: its `discovery`
 * name, its version, and the endpoint at `--url` as a `streamable-http` remote.
 */
export async function serverJsonCommand(
  args: CliArguments,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const module = await loadModuleReference(args.module!);
  const { app, close } = await openCliApp(module);
  let result: ServerJsonResult;
  let resource: string | undefined;
  try {
    const server = selectServer(app, args.server);
    resource = server.options.auth?.resource;
    result = describeForRegistry(server, args.url!);
  } finally {
    await close();
  }
  const { serverJson, leftOut } = result;
  if (resource !== undefined && resource.replace(/\/+$/, '') !== args.url!.replace(/\/+$/, '')) {
    // RFC 8707: a client asks for tokens for the URL it connects to.
    err.write(
      `nestjs-mcp: auth.resource is ${resource}, not --url ${args.url}: clients of the registry ` +
        `connect to --url, and the endpoint names ${resource} as the resource its tokens are for.\n`,
    );
  }
  if (leftOut.length > 0) {
    err.write(
      `nestjs-mcp: left out of server.json, as the registry takes only https: icons of ` +
        `PNG, JPEG, SVG or WebP with WxH sizes: ${leftOut.join(', ')}.\n`,
    );
  }
  const text = `${JSON.stringify(serverJson, null, 2)}\n`;
  const file = args.out ?? DEFAULT_OUT;
  if (!(await writeOutput(file, text, out))) return EXIT_OK;
  out.write(
    `Wrote ${file}: ${serverJson.name} ${serverJson.version} at ${serverJson.remotes[0]!.url}.\n`,
  );
  return EXIT_OK;
}

/** The `server.json` of `server`, reached at `url`; what it lacks is a usage error. */
function describeForRegistry(server: McpProtocolRuntime, url: string): ServerJsonResult {
  const { name, version, instructions, discovery, auth } = server.options;
  if (discovery === undefined) {
    throw new CliUsageError(
      `The MCP server "${name}" has no discovery option, which gives its name in the registry: ` +
        `add discovery: { name: 'com.example/${name}' } (a domain you own, reversed, or ` +
        `io.github.<user>) to its McpModule options (docs/discovery.md).`,
    );
  }
  if (server.options.http === false) {
    throw new CliUsageError(
      `The MCP server "${name}" has http: false, so it serves no endpoint for a registry remote: ` +
        `give it an http endpoint, or choose another server with --server.`,
    );
  }
  const versionProblem = registryVersionProblem(version);
  if (versionProblem !== undefined) {
    throw new CliUsageError(`The version of the MCP server "${name}": ${versionProblem}.`);
  }
  return registryServerJson({
    discovery,
    serverName: name,
    version,
    instructions,
    endpointUrl: url,
    // With `auth`, the metadata of the resource the endpoint's 401 names: `auth.resource`,
    // else the endpoint at its public URL.
    ...(auth && { resourceMetadata: protectedResourceMetadataUrl(auth.resource ?? url) }),
  });
}
