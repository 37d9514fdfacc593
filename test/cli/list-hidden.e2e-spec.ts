import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt } from '../transports/stdio/stdio-process.js';
import { CLI, runCli } from './cli-run.js';

// The built binary against a compiled fixture app, as an operator runs it.
const FIXTURE = 'test/cli/fixtures/hidden-fixture.module.mjs#HiddenFixtureModule';

const cli = (...args: string[]) => runCli(args);

beforeAll(() => requireBuilt(CLI));

describe('nestjs-mcp list --hidden', () => {
  it('prints the hidden methods of each kind with their reasons', async () => {
    const run = await cli('list', FIXTURE, '--hidden');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tools (1)');
    expect(run.stdout).toContain('Hidden (3): kept off MCP with @McpHidden() or { hidden }');
    expect(run.stdout).toMatch(/METHOD\s+REASON/);
    expect(run.stdout).toMatch(
      /ShopTools\.chargeCard\s+Charges the card; only the checkout flow may call it, never a model\./,
    );
    expect(run.stdout).toMatch(
      /ShopTools\.legacyReport\s+Withdrawn until the report is rewritten\./,
    );
    expect(run.stdout).toMatch(/ShopTools\.draftEmail\s+The prompt is still being tuned\./);
  });

  it('leaves them out without the flag', async () => {
    const run = await cli('list', FIXTURE);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tools (1)');
    expect(run.stdout).not.toContain('Hidden');
    expect(run.stdout).not.toContain('chargeCard');
  });

  it('adds them to the JSON catalog with --json', async () => {
    const run = await cli('list', FIXTURE, '--hidden', '--json');
    expect(run.code).toBe(0);
    const [server] = JSON.parse(run.stdout).servers;
    expect(server.tools.map((tool: { name: string }) => tool.name)).toEqual(['search_catalog']);
    expect(server.hidden).toEqual([
      {
        where: 'ShopTools.chargeCard',
        reason: 'Charges the card; only the checkout flow may call it, never a model.',
      },
      { where: 'ShopTools.legacyReport', reason: 'Withdrawn until the report is rewritten.' },
      { where: 'ShopTools.draftEmail', reason: 'The prompt is still being tuned.' },
    ]);
    const plain = JSON.parse((await cli('list', FIXTURE, '--json')).stdout);
    expect(plain.servers[0]).not.toHaveProperty('hidden');
  });

  it('is refused on other commands', async () => {
    const run = await cli('call', FIXTURE, 'search_catalog', '--hidden');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--hidden is for the list command.');
  });
});

describe('nestjs-mcp call by alias', () => {
  it('calls the tool under its former name and warns that the name is deprecated', async () => {
    const run = await cli('call', FIXTURE, 'Catalog.search');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('found 3 products');
    expect(run.stderr).toContain(
      'A client called the tool "Catalog.search", a deprecated alias of "search_catalog"',
    );
  });

  it('does not list the alias, and refuses a name the tool never had', async () => {
    expect((await cli('list', FIXTURE)).stdout).not.toContain('Catalog.search');
    const run = await cli('call', FIXTURE, 'Catalog.find');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown tool "Catalog.find" on the server shop');
  });
});
