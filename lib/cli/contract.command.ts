import type { INestApplicationContext } from '@nestjs/common';
import { METHOD_NOT_FOUND } from '@modelcontextprotocol/server';
import { readFile } from 'node:fs/promises';
import { diffContracts, serverContractKey } from '../contract/contract.diff.js';
import { formatContractDiff, summarizeContractDiff } from '../contract/contract-diff.formatter.js';
import { ContractFileError, parseContract } from '../contract/contract-file.parser.js';
import {
  DEFAULT_LOCALE,
  type ContractLister,
  type ContractListMethod,
  type McpContract,
  type ServerContract,
} from '../contract/mcp-contract.interface.js';
import {
  assembleContract,
  describeServerContract,
  serializeContract,
} from '../contract/server-contract.builder.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import {
  authenticateCaller,
  CallerRefusedError,
  resolveCallerRequest,
} from '../transports/caller.authenticator.js';
import { listServers, selectServer } from '../transports/server.selector.js';
import type { CliArguments } from './cli.arguments.js';
import { openCliApp } from './cli-app.js';
import { CliUsageError, EXIT_FAILURE, EXIT_OK } from './cli-usage.error.js';
import { parseContractCallers, type ContractCaller } from './contract-caller.parser.js';
import { InProcessRequester, InProcessRequestError } from './in-process.requester.js';
import { loadModuleReference } from './module-reference.loader.js';
import { writeOutput } from './output-file.js';

/** The field of each list result that holds the entries. */
const RESULT_FIELDS: Record<ContractListMethod, string> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

/**
 * `nestjs-mcp contract <module> --out <file>` writes what the module's servers publish to
 * each caller in each locale; `--check <file>` compares it with a written file and exits
 * with 1 and the differences when they are not the same.
 */
export async function contractCommand(
  args: CliArguments,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  // The command line and the file to check are read before the app starts.
  const callers = parseContractCallers(args.callers ?? []);
  const locales = args.locales ?? [DEFAULT_LOCALE];
  const expected = args.check === undefined ? undefined : await readContractFile(args.check);
  const module = await loadModuleReference(args.module!);
  const { app, close } = await openCliApp(module);
  let contract: McpContract;
  try {
    const servers = args.server === undefined ? listServers(app) : [selectServer(app, args.server)];
    // selectServer explains an app without a server.
    if (servers.length === 0) selectServer(app);
    const described: ServerContract[] = [];
    for (const server of servers) {
      for (const caller of callers) {
        for (const locale of locales) described.push(await describeAs(app, server, caller, locale));
      }
    }
    contract = assembleContract(described);
  } finally {
    await close();
  }
  const entries = contract.servers.map(serverContractKey).join(', ');
  if (args.out !== undefined) {
    const text = serializeContract(contract);
    if (await writeOutput(args.out, text, out, `the contract file ${args.out}`)) {
      out.write(`Wrote ${args.out}: ${entries}.\n`);
    }
    return EXIT_OK;
  }
  const differences = diffContracts(expected!, contract);
  if (differences.length === 0) {
    out.write(`${args.check}: no change (${entries}).\n`);
    return EXIT_OK;
  }
  out.write(formatContractDiff(differences));
  err.write(
    `nestjs-mcp: the published contract differs from ${args.check}: ${summarizeContractDiff(differences)}. ` +
      `If the change is intended, write the file again with --out ${args.check} (same --as, --locale and --server) and commit it.\n`,
  );
  return EXIT_FAILURE;
}

/** One server as one caller sees it in one locale, through the same guards as over HTTP. */
async function describeAs(
  app: INestApplicationContext,
  server: McpProtocolRuntime,
  caller: ContractCaller,
  locale: string,
): Promise<ServerContract> {
  // Localization is not there yet: the locale travels as Accept-Language, so that the
  // app's own guards and interceptors may read it, and labels the entry.
  const headers = {
    ...caller.headers,
    ...(locale !== DEFAULT_LOCALE && { 'accept-language': locale }),
  };
  const request = await resolveCallerRequest({ headers });
  try {
    await authenticateCaller(app, server, request);
  } catch (error) {
    if (!(error instanceof CallerRefusedError)) throw error;
    throw new CliUsageError(
      `The caller ${caller.label} was refused by ${error.guard} on the server ${server.options.name}: ${error.reason}. ` +
        `Give the callers with --as 'Authorization: Bearer <token>' (or --as reader='Authorization: Bearer <token>' to name one).`,
    );
  }
  const requester = await InProcessRequester.connect(server, { request });
  try {
    const lister = {
      ...pagedLister(requester),
      toolLimits: (name: string) => server.tool(name)?.limits,
    };
    return await describeServerContract(lister, {
      server: server.options.name,
      caller: caller.label,
      locale,
    });
  } finally {
    await requester.close();
  }
}

/** Lists through the requester, following `nextCursor` to the last page. */
function pagedLister(requester: InProcessRequester): ContractLister {
  return {
    async list(method) {
      const entries: Record<string, unknown>[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        let page: Record<string, unknown>;
        try {
          page = await requester.request(method, cursor === undefined ? undefined : { cursor });
        } catch (error) {
          // A server without the capability publishes nothing of that kind.
          if (error instanceof InProcessRequestError && error.code === METHOD_NOT_FOUND) return [];
          throw error;
        }
        entries.push(...((page[RESULT_FIELDS[method]] as Record<string, unknown>[]) ?? []));
        const next = page.nextCursor;
        cursor = typeof next === 'string' ? next : undefined;
        if (cursor !== undefined && seen.has(cursor)) {
          throw new Error(`${method} returned the cursor "${cursor}" twice; its pages never end.`);
        }
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
      return entries;
    },
  };
}

async function readContractFile(file: string): Promise<McpContract> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(
      `Cannot read the contract file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); write it first with --out ${file}.`,
    );
  }
  try {
    return parseContract(text, file);
  } catch (error) {
    if (error instanceof ContractFileError) throw new CliUsageError(error.message);
    throw error;
  }
}
