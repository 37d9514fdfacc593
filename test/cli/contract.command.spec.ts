// `contractCommand` run in this process, on the compiled-JavaScript fixture apps of
// test/cli/fixtures (loaded as the CLI loads a user's dist/app.module.js). The built
// binary, its exit codes and its stderr line are covered by contract.e2e-spec.ts; here
// each outcome is read from the command's own return value, streams and thrown errors.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError, EXIT_FAILURE, EXIT_OK } from '../../lib/cli/cli-usage.error.js';
import { contractCommand } from '../../lib/cli/contract.command.js';
import { runCommand } from './cli-run.js';

const fixture = (file: string, exportName: string) =>
  `${fileURLToPath(new URL(`fixtures/${file}`, import.meta.url))}#${exportName}`;
/** Two servers, shop and ops, without guards on the endpoint. */
const SHOP = fixture('contract-fixture.module.mjs', 'ContractFixtureModule');
/** One server, members, whose endpoint guard wants `Authorization: Bearer member`. */
const MEMBERS = fixture('guarded-fixture.module.mjs', 'GuardedFixtureModule');

/** Runs `nestjs-mcp contract ...argv` in process: the exit code and both streams. */
function contract(...argv: string[]) {
  return runCommand(contractCommand, ['contract', ...argv]);
}

/** The usage error a command line ends with (the CLI prints it and exits with 2). */
async function usageError(...argv: string[]): Promise<string> {
  const error = await contract(...argv).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CliUsageError);
  return (error as CliUsageError).message;
}

let dir: string;
/** What `--out -` writes for the shop fixture (run once): the text the checks compare with. */
let shopContract: Promise<string> | undefined;
const written = () => (shopContract ??= contract(SHOP, '--out', '-').then((run) => run.stdout));

beforeAll(async () => {
  // The fixture reads it when loaded: the description of lookup_order must be its own.
  delete process.env.CONTRACT_FIXTURE_LOOKUP_DESCRIPTION;
  dir = await mkdtemp(join(tmpdir(), 'nestjs-mcp-contract-command-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('contractCommand --out', () => {
  it('writes the contract JSON of every server to stdout with --out -', async () => {
    const run = await contract(SHOP, '--out', '-');
    expect(run).toMatchObject({ code: EXIT_OK, stderr: '' });
    const parsed = JSON.parse(run.stdout);
    expect(parsed.contractVersion).toBe(1);
    expect(
      parsed.servers.map((server: any) => [
        server.server,
        server.caller,
        server.locale,
        server.tools.map((tool: any) => tool.name),
      ]),
    ).toEqual([
      ['ops', 'anonymous', 'default', ['restart']],
      // Two pages of two joined; refund_order and versand_status are kept from this caller.
      ['shop', 'anonymous', 'default', ['lookup_order', 'ping']],
    ]);
    expect(parsed.servers[1].tools[0]).toMatchObject({
      title: 'Look up an order',
      description: 'Find an order by its number.',
    });
    // A file a diff reads line by line: indented, with a final newline.
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.split('\n').length).toBeGreaterThan(10);
  });

  it('writes the same text to a file, and names the file and its entries', async () => {
    const file = join(dir, 'written.json');
    const run = await contract(SHOP, '--out', file);
    expect(run).toEqual({
      code: EXIT_OK,
      stdout: `Wrote ${file}: ops@anonymous, shop@anonymous.\n`,
      stderr: '',
    });
    expect(await readFile(file, 'utf8')).toBe(await written());
  });

  it('gives a usage error for an --out path in a folder that does not exist', async () => {
    const nowhere = join(dir, 'no-such-folder', 'contract.json');
    expect(await usageError(SHOP, '--out', nowhere)).toBe(
      `Cannot write the contract file ${nowhere} (ENOENT); give a path in a folder that exists.`,
    );
  });

  it('gives a usage error for an --out path that is a folder', async () => {
    expect(await usageError(SHOP, '--out', dir)).toMatch(
      new RegExp(`^Cannot write the contract file ${dir} \\(EISDIR\\)`),
    );
  });
});

describe('contractCommand --check', () => {
  it('exits 0 and says so when the file holds what the app publishes', async () => {
    const file = join(dir, 'equal.json');
    await writeFile(file, await written());
    expect(await contract(SHOP, '--check', file)).toEqual({
      code: EXIT_OK,
      stdout: `${file}: no change (ops@anonymous, shop@anonymous).\n`,
      stderr: '',
    });
  });

  it('exits 1, printing each difference and how to accept them', async () => {
    const older = JSON.parse(await written());
    const shop = older.servers.find((server: any) => server.server === 'shop');
    shop.tools = shop.tools.filter((tool: any) => tool.name !== 'ping');
    shop.tools[0].description = 'Find an order.';
    const file = join(dir, 'older.json');
    await writeFile(file, JSON.stringify(older, null, 2));

    const run = await contract(SHOP, '--check', file);
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      '/servers/shop@anonymous/tools/lookup_order/description changed: "Find an order." → "Find an order by its number."',
      expect.stringMatching(/^\/servers\/shop@anonymous\/tools\/ping added: \{"name":"ping",/),
    ]);
    expect(run.stderr).toBe(
      `nestjs-mcp: the published contract differs from ${file}: 2 differences (1 changed, 1 added). ` +
        `If the change is intended, write the file again with --out ${file} (same --as, --locale and --server) and commit it.\n`,
    );
  });

  it('gives a usage error for a --check file that is missing', async () => {
    const missing = join(dir, 'missing.json');
    expect(await usageError(SHOP, '--check', missing)).toBe(
      `Cannot read the contract file ${missing} (ENOENT); write it first with --out ${missing}.`,
    );
  });
});

describe('contractCommand and the guards of the endpoint', () => {
  it('describes a caller the guard admits, under its label', async () => {
    const run = await contract(
      MEMBERS,
      '--out',
      '-',
      '--as',
      'member=Authorization: Bearer member',
    );
    expect(run.code).toBe(EXIT_OK);
    const { servers } = JSON.parse(run.stdout);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ server: 'members', caller: 'member' });
    expect(servers[0].tools.map((tool: any) => tool.name)).toEqual(['balance']);
    // The label is written, never the token.
    expect(run.stdout).not.toContain('Bearer member');
  });

  it('refuses a caller the guard turns away, naming the guard, its reason and --as', async () => {
    const message = await usageError(MEMBERS, '--out', '-');
    expect(message).toBe(
      'The caller anonymous was refused by MemberTokenGuard on the server members: ' +
        'A member token is required (401). ' +
        "Give the callers with --as 'Authorization: Bearer <token>' (or --as reader='Authorization: Bearer <token>' to name one).",
    );
  });

  it('names the refused caller by its label when several are given', async () => {
    const message = await usageError(
      MEMBERS,
      '--out',
      '-',
      '--as',
      'member=Authorization: Bearer member',
      '--as',
      'guest=Authorization: Bearer guest',
    );
    expect(message).toMatch(
      /^The caller guest was refused by MemberTokenGuard on the server members/,
    );
  });
});
