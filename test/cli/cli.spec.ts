import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, expectUsageError, runCli } from './cli-run.js';
import {
  initializeRequest,
  requireBuilt,
  StdioProcess,
} from '../transports/stdio/stdio-process.js';

// The built binary against the built sample, as docs/stdio-and-cli.md shows it (npm test builds both first).
const MODULE = 'dist-sample/app.module.js#AppModule';
const ADMIN = 'Authorization: Bearer admin-token';
const READER = 'Authorization: Bearer reader-token';

/** The CLI run as a user would, with `NESTJS_MCP_AUTHORIZATION` only when `authorization` is given. */
const cliAs = (authorization: string | undefined, ...args: string[]) =>
  runCli(args, {
    env: authorization === undefined ? {} : { NESTJS_MCP_AUTHORIZATION: authorization },
  });

const cli = (...args: string[]) => cliAs(undefined, ...args);

beforeAll(() => requireBuilt(CLI, 'dist-sample/app.module.js'));

describe('nestjs-mcp list', () => {
  it('prints the server, an overview table of the tools and each tool arguments', async () => {
    const run = await cli('list', MODULE);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('MCP server catalog 1.0.0');
    expect(run.stdout).toContain('Tools (9)');
    expect(run.stdout).toMatch(/NAME\s+TITLE\s+HINTS\s+ARGUMENTS/);
    expect(run.stdout).toMatch(
      /search_products\s+Search products\s+read-only\s+query\?, category\?/,
    );
    expect(run.stdout).toMatch(/limit\s+integer\s+no\s+1\.\.50, default 10/);
    // Nest's start-up lines are not printed with the listing.
    expect(run.stdout + run.stderr).not.toContain('InstanceLoader');
  });

  it('prints the catalog as JSON with --json, schemas included', async () => {
    const run = await cli('list', MODULE, '--json');
    expect(run.code).toBe(0);
    const { servers } = JSON.parse(run.stdout);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: 'catalog', version: '1.0.0' });
    const search = servers[0].tools.find((tool: any) => tool.name === 'search_products');
    expect(search.inputSchema.properties.limit).toMatchObject({ minimum: 1, maximum: 50 });
    expect(search.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('takes AppModule as the default export name', async () => {
    const run = await cli('list', 'dist-sample/app.module.js', '--json');
    expect(JSON.parse(run.stdout).servers[0].name).toBe('catalog');
  });
});

describe('nestjs-mcp call', () => {
  it('calls a tool through the pipeline and prints its result', async () => {
    const run = await cli(
      'call',
      MODULE,
      'search_products',
      '--args',
      '{"query":"headphones","limit":1}',
      '--header',
      READER,
    );
    expect(run.code).toBe(0);
    const page = JSON.parse(run.stdout);
    expect(page.items).toHaveLength(1);
    expect(page.total).toBeGreaterThan(0);
  });

  it('prints the raw CallToolResult with --json, and reads the caller from NESTJS_MCP_AUTHORIZATION', async () => {
    const run = await cliAs(
      'Bearer admin-token',
      'call',
      MODULE,
      'get_product',
      '--json',
      '--args',
      '{"id":"not-a-uuid"}',
    );
    // Invalid arguments are an isError result: printed, exit code 1.
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('/id');
  });

  it('exits with 1 when the tool answers isError (a guard refused the reader)', async () => {
    const args =
      '{"sku":"KIT-8001","name":"Pan","description":"A pan for every hob","category":"kitchen","price":10,"stock":1}';
    const refused = await cli('call', MODULE, 'create_product', '--args', args, '--header', READER);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Missing scope(s): catalog.write');

    const created = await cli('call', MODULE, 'create_product', '--args', args, '--header', ADMIN);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ sku: 'KIT-8001' });
  });

  it('exits with 2 and a hint for --args that are not JSON', async () => {
    const run = await cli('call', MODULE, 'search_products', '--args', '{query:lamp}');
    expectUsageError(run, `--args is not valid JSON`);
    expect(run.stderr).toContain(`--args '{"name":"value"}'`);
  });

  it('exits with 2 for an unknown tool, naming the tools', async () => {
    const run = await cli('call', MODULE, 'search_product', '--header', READER);
    expectUsageError(run, 'Unknown tool "search_product"');
    expect(run.stderr).toContain('search_products');
  });

  it('exits with 2 when the app guard refuses the caller, saying how to pass credentials', async () => {
    const run = await cli('call', MODULE, 'search_products');
    expectUsageError(run, 'refused by BearerTokenGuard');
    expect(run.stderr).toContain('--header "Authorization: Bearer <token>"');
  });
});

describe('nestjs-mcp command line mistakes', () => {
  it.each([
    { args: ['frobnicate', MODULE], text: 'Unknown command "frobnicate"' },
    { args: [], text: 'Give a command' },
    { args: ['list'], text: 'Give the module' },
    { args: ['list', 'dist-sample/missing.js#AppModule'], text: 'Cannot find the module file' },
    { args: ['list', 'dist-sample/app.module.js#Nope'], text: 'its Nest modules are: AppModule' },
    { args: ['list', 'sample/app.module.ts#AppModule'], text: 'is TypeScript' },
    { args: ['list', MODULE, '--verbose'], text: "Unknown option '--verbose'" },
    { args: ['list', MODULE, '--server', 'shop'], text: 'no MCP server named "shop"' },
  ])('$args: $text', async ({ args, text }) => {
    expectUsageError(await cli(...args), text);
  });

  it('prints the help with --help', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    for (const word of ['list', 'call', 'serve', '--json', '--args', '--header', '--server']) {
      expect(run.stdout).toContain(word);
    }
  });
});

describe('nestjs-mcp serve', () => {
  let spawned: StdioProcess | undefined;
  afterEach(() => spawned?.kill());

  it('serves the module over stdio as the given caller, and exits with 0 when stdin closes', async () => {
    spawned = new StdioProcess([CLI, 'serve', MODULE, '--header', READER]);
    spawned.send(initializeRequest(1));
    expect((await spawned.response(1)).result.serverInfo.name).toBe('catalog');
    spawned.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    spawned.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const names = (await spawned.response(2)).result.tools.map((tool: any) => tool.name);
    expect(names.toSorted()).toEqual(['catalog_get', 'get_product', 'search_products']);
    await expect(spawned.closeStdin()).resolves.toBe(0);
    for (const line of spawned.stdoutLines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
  });
});
