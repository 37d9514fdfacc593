// The built binary on the built sample, as a user runs it before `mcp-publisher publish`:
// issue 32's "`nestjs-mcp server-json` on the sample writes a file that the registry's
// schema accepts". `npm test` builds both first.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverJsonProblems } from '../support/discovery-schemas.js';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';
import { runCli } from './cli-run.js';

const SAMPLE = join(ROOT, 'dist-sample/app.module.js#AppModule');
const URL_FLAG = ['--url', 'https://mcp.example.com/mcp'];

/** The CLI in `cwd`, without the sample's OAuth mode unless `env` sets it. */
const cli = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd, env, unset: /^(SAMPLE_OAUTH_|NESTJS_MCP_)/ });

let dir: string;

beforeAll(async () => {
  requireBuilt('dist/cli/main.js', 'dist-sample/app.module.js');
  dir = await mkdtemp(join(tmpdir(), 'nestjs-mcp-server-json-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nestjs-mcp server-json on the sample', () => {
  it('writes server.json where it runs, valid against the registry schema', async () => {
    const run = await cli(dir, ['server-json', SAMPLE, ...URL_FLAG]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'Wrote server.json: com.example/catalog 1.0.0 at https://mcp.example.com/mcp.\n',
    );
    const written = JSON.parse(await readFile(join(dir, 'server.json'), 'utf8'));
    expect(serverJsonProblems(written)).toEqual([]);
    expect(written).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'com.example/catalog',
      version: '1.0.0',
      description: 'Search and read the product catalog of an online shop.',
      title: 'Product catalog',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          headers: [
            {
              name: 'Authorization',
              description: 'A bearer token of the catalog',
              value: 'Bearer {token}',
              isRequired: true,
              isSecret: true,
              variables: {
                token: { description: 'Your API token', isRequired: true, isSecret: true },
              },
            },
          ],
        },
      ],
    });
    // Never a token of the sample, though its guard knows two.
    expect(JSON.stringify(written)).not.toMatch(/reader-token|admin-token/);
  });

  it('links to the Protected Resource Metadata in the OAuth mode, with --out', async () => {
    const file = join(dir, 'oauth.json');
    const run = await cli(
      dir,
      ['server-json', SAMPLE, '--url', 'https://mcp.example.com/mcp', '--out', file],
      {
        SAMPLE_OAUTH_ISSUER: 'https://issuer.example.com/',
        SAMPLE_OAUTH_RESOURCE: 'https://mcp.example.com/mcp',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(serverJsonProblems(written)).toEqual([]);
    expect(written.remotes).toEqual([
      { type: 'streamable-http', url: 'https://mcp.example.com/mcp' },
    ]);
    expect(written._meta).toEqual({
      'io.modelcontextprotocol.registry/publisher-provided': {
        'nestjs-mcp/authorization': {
          resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        },
      },
    });
  });

  it.each([
    [['server-json', SAMPLE], 'Give --url, the public URL of the MCP endpoint'],
    [
      ['server-json', SAMPLE, '--url', 'mcp.example.com/mcp'],
      '--url needs an absolute http(s) URL',
    ],
    [['server-json', SAMPLE, ...URL_FLAG, '--server', 'shop'], 'no MCP server named "shop"'],
  ])('refuses %j with one line, exit code 2, and writes nothing', async (args, message) => {
    const cwd = await mkdtemp(join(dir, 'refused-'));
    const run = await cli(cwd, args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(message);
    await expect(stat(join(cwd, 'server.json'))).rejects.toThrow('ENOENT');
  });

  it('refuses a module whose server has no discovery name', async () => {
    const fixture = join(ROOT, 'test/cli/fixtures/guarded-fixture.module.mjs#GuardedFixtureModule');
    const run = await cli(dir, ['server-json', fixture, ...URL_FLAG]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The MCP server "members" has no discovery option');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
