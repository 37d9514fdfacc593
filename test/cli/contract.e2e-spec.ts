import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';
import { CLI, expectUsageError, runCli } from './cli-run.js';

// The built binary, run as CI runs it, against the built sample and a fixture app of its own.
const SAMPLE = 'dist-sample/app.module.js#AppModule';
const SAMPLE_CONTRACT = 'sample/mcp-contract.json';
const SAMPLE_CALLERS = [
  '--as',
  'reader=Authorization: Bearer reader-token',
  '--as',
  'admin=Authorization: Bearer admin-token',
];
const FIXTURE = 'test/cli/fixtures/contract-fixture.module.mjs#ContractFixtureModule';
const DESCRIPTION_ENV = 'CONTRACT_FIXTURE_LOOKUP_DESCRIPTION';

/** The CLI, with the fixture's description switch only when `env` sets it. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env, unset: new RegExp(`^(NESTJS_MCP_|${DESCRIPTION_ENV}$)`) });

let dir: string;

beforeAll(async () => {
  requireBuilt(CLI, 'dist-sample/app.module.js');
  dir = await mkdtemp(join(tmpdir(), 'nestjs-mcp-contract-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nestjs-mcp contract --check on the sample (as CI runs it)', () => {
  it('passes: the checked-in contract is what the sample publishes', async () => {
    const run = await cli(['contract', SAMPLE, '--check', SAMPLE_CONTRACT, ...SAMPLE_CALLERS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${SAMPLE_CONTRACT}: no change (catalog@admin, catalog@reader).\n`);
  });

  it('holds each caller labelled, never its token, and what that caller may see', async () => {
    const text = await readFile(join(ROOT, SAMPLE_CONTRACT), 'utf8');
    expect(text).not.toMatch(/reader-token|admin-token/);
    const contract = JSON.parse(text);
    expect(contract.contractVersion).toBe(1);
    const tools = (caller: string) =>
      contract.servers
        .find((server: any) => server.caller === caller)
        .tools.map((tool: any) => tool.name);
    expect(tools('reader')).toEqual(['catalog_get', 'get_product', 'search_products']);
    expect(tools('admin')).toEqual([
      'catalog_delete',
      'catalog_get',
      'catalog_update',
      'create_product',
      'delete_product',
      'get_product',
      'reindex_catalog',
      'restock_product',
      'search_products',
    ]);
  });

  it('fails with exit 1 and the differences against an older contract', async () => {
    const older = JSON.parse(await readFile(join(ROOT, SAMPLE_CONTRACT), 'utf8'));
    const admin = older.servers.find((server: any) => server.caller === 'admin');
    admin.tools = admin.tools.filter((tool: any) => tool.name !== 'delete_product');
    admin.tools.find((tool: any) => tool.name === 'search_products').title = 'Find products';
    const file = join(dir, 'older-sample-contract.json');
    await writeFile(file, JSON.stringify(older, null, 2));

    const run = await cli(['contract', SAMPLE, '--check', file, ...SAMPLE_CALLERS]);
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      '/servers/catalog@admin/tools/search_products/title changed: "Find products" → "Search products"',
      expect.stringMatching(
        /^\/servers\/catalog@admin\/tools\/delete_product added: \{"name":"delete_product",/,
      ),
    ]);
    expect(run.stderr).toContain(
      `the published contract differs from ${file}: 2 differences (1 changed, 1 added)`,
    );
    expect(run.stderr).toContain(`write the file again with --out ${file}`);
  });

  it('refuses the anonymous caller the sample guard turns away, saying to pass --as', async () => {
    const run = await cli(['contract', SAMPLE, '--check', SAMPLE_CONTRACT]);
    expectUsageError(
      run,
      'The caller anonymous was refused by BearerTokenGuard on the server catalog',
    );
    expect(run.stderr).toContain("--as 'Authorization: Bearer <token>'");
  });
});

describe('nestjs-mcp contract on an app whose tool description changes', () => {
  it('writes the contract, passes the check, then fails naming the tool and the field', async () => {
    const file = join(dir, 'fixture-contract.json');
    const written = await cli(['contract', FIXTURE, '--out', file]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(written.stdout).toBe(`Wrote ${file}: ops@anonymous, shop@anonymous.\n`);

    const unchanged = await cli(['contract', FIXTURE, '--check', file]);
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toContain('no change');

    const changed = await cli(['contract', FIXTURE, '--check', file], {
      [DESCRIPTION_ENV]: 'Find an order by its number or by the email of its buyer.',
    });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toBe(
      '/servers/shop@anonymous/tools/lookup_order/description changed: ' +
        '"Find an order by its number." → "Find an order by its number or by the email of its buyer."\n',
    );
    expect(changed.stderr).toContain('1 difference (1 changed)');
  });

  it('lists every server by default, each caller as its guards let it see, all pages joined', async () => {
    const run = await cli([
      'contract',
      FIXTURE,
      '--out',
      '-',
      '--as',
      'anonymous',
      '--as',
      'admin=X-Role: admin',
      '--as',
      'X-Role: admin',
    ]);
    expect(run.code).toBe(0);
    const { servers } = JSON.parse(run.stdout);
    const summary = servers.map(
      (server: any) =>
        `${server.server} ${server.caller}: ${server.tools.map((tool: any) => tool.name).join(' ')}`,
    );
    expect(summary).toEqual([
      'ops admin: restart',
      'ops anonymous: restart',
      expect.stringMatching(/^ops x-role: <sha256:[0-9a-f]{8}>: restart$/),
      // The admin guard shows refund_order to admins only; pages of two are joined.
      'shop admin: lookup_order ping refund_order',
      'shop anonymous: lookup_order ping',
      expect.stringMatching(/^shop x-role: <sha256:[0-9a-f]{8}>: lookup_order ping refund_order$/),
    ]);
    expect(run.stdout).not.toContain('"X-Role: admin"');
    expect(servers[3]).toMatchObject({
      prompts: [{ name: 'order_summary', description: 'Summarize the open orders.' }],
      resources: [{ uri: 'shop://terms', mimeType: 'text/plain', name: 'terms' }],
      resourceTemplates: [],
    });
  });

  it('records each locale, sending it as Accept-Language; --server picks one server', async () => {
    const run = await cli([
      'contract',
      FIXTURE,
      '--out',
      '-',
      '--server',
      'shop',
      '--locale',
      'de',
      '--locale',
      'default',
    ]);
    expect(run.code).toBe(0);
    const { servers } = JSON.parse(run.stdout);
    expect(
      servers.map((server: any) => [
        server.server,
        server.locale,
        server.tools.map((tool: any) => tool.name),
      ]),
    ).toEqual([
      // A guard of the app reads Accept-Language: versand_status is published in German only.
      ['shop', 'de', ['lookup_order', 'ping', 'versand_status']],
      ['shop', 'default', ['lookup_order', 'ping']],
    ]);
  });

  it('exits with 2 for a contract file that is missing, not a contract or cannot be written', async () => {
    const missing = join(dir, 'missing.json');
    expectUsageError(
      await cli(['contract', FIXTURE, '--check', missing]),
      `Cannot read the contract file ${missing} (ENOENT); write it first with --out ${missing}.`,
    );
    const nowhere = join(dir, 'no-such-folder', 'contract.json');
    expectUsageError(
      await cli(['contract', FIXTURE, '--out', nowhere]),
      `Cannot write the contract file ${nowhere} (ENOENT)`,
    );
    const other = join(dir, 'other.json');
    await writeFile(other, '{"contractVersion": 7, "servers": []}');
    expectUsageError(
      await cli(['contract', FIXTURE, '--check', other]),
      'has contractVersion 7; this nestjs-mcp reads version 1',
    );
  });

  it('shows the command in --help', async () => {
    const run = await cli(['--help']);
    expect(run.stdout).toContain('contract <module>');
    expect(run.stdout).toContain('--check <file>');
    expect(run.stdout).toContain('--as <caller>');
  });
});
