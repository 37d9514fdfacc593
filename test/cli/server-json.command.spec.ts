// `serverJsonCommand` run in this process, on a compiled-JavaScript fixture app with several
// servers (test/cli/fixtures/discovery-fixture.module.mjs, loaded as the CLI loads a user's
// dist/app.module.js). The built binary on the sample, its exit codes and its stderr line
// are covered by server-json.e2e-spec.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../lib/cli/cli.arguments.js';
import { CliUsageError, EXIT_OK } from '../../lib/cli/cli-usage.error.js';
import { serverJsonCommand } from '../../lib/cli/server-json.command.js';
import { ServerSelectionError } from '../../lib/transports/server.selector.js';
import { serverJsonProblems } from '../support/discovery-schemas.js';
import { runCommand, usageErrorOf } from './cli-run.js';

const MODULE = `${fileURLToPath(new URL('fixtures/discovery-fixture.module.mjs', import.meta.url))}#DiscoveryFixtureModule`;

/** Runs `nestjs-mcp server-json <fixture> ...argv` in process. */
const serverJson = (...argv: string[]) =>
  runCommand(serverJsonCommand, ['server-json', MODULE, ...argv]);

async function failure(...argv: string[]): Promise<Error> {
  const error = await serverJson(...argv).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nestjs-mcp-server-json-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nestjs-mcp server-json (in process)', () => {
  it('writes the chosen server: its discovery fields, its version and the remote at --url', async () => {
    const file = join(dir, 'shop.json');
    const run = await serverJson(
      '--server',
      'shop',
      '--url',
      'https://shop.example.com/mcp/shop',
      '--out',
      file,
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toBe(
      `Wrote ${file}: io.github.acme/shop 2.1.0 at https://shop.example.com/mcp/shop.\n`,
    );
    // The data: icon is the card's only; the registry takes https: icons.
    expect(run.stderr).toContain('left out of server.json');
    expect(run.stderr).toContain('the icon data:image/png;base64');
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(serverJsonProblems(written)).toEqual([]);
    expect(written).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.acme/shop',
      version: '2.1.0',
      description: 'Search the products of the Acme shop.',
      title: 'Acme shop',
      websiteUrl: 'https://acme.example.com/docs/mcp',
      repository: { url: 'https://github.com/acme/shop', source: 'github', subfolder: 'mcp' },
      icons: [
        { src: 'https://acme.example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] },
      ],
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://shop.example.com/mcp/shop',
          headers: [
            {
              name: 'X-API-Key',
              description: 'Your Acme API key',
              value: '{key}',
              isRequired: true,
              isSecret: true,
              variables: { key: { description: 'The key of your account', isSecret: true } },
            },
          ],
        },
      ],
    });
  });

  it('links an OAuth server to the metadata of its auth.resource, to stdout with --out -', async () => {
    const run = await serverJson(
      '--server',
      'ops',
      '--url',
      'https://ops.example.com/mcp',
      '--out',
      '-',
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toBe('');
    const written = JSON.parse(run.stdout);
    expect(serverJsonProblems(written)).toEqual([]);
    expect(written).toMatchObject({
      name: 'com.example/ops',
      description: 'Operations of the shop: reindex and purge caches.',
      remotes: [{ type: 'streamable-http', url: 'https://ops.example.com/mcp' }],
      _meta: {
        'io.modelcontextprotocol.registry/publisher-provided': {
          'nestjs-mcp/authorization': {
            resourceMetadata: 'https://ops.example.com/.well-known/oauth-protected-resource/mcp',
          },
        },
      },
    });
    expect(written.remotes[0]).not.toHaveProperty('headers');
  });

  it('warns when --url is not the resource the endpoint names for its tokens', async () => {
    const run = await serverJson(
      '--server',
      'ops',
      '--url',
      'https://elsewhere.example.com/mcp',
      '--out',
      '-',
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toContain(
      'auth.resource is https://ops.example.com/mcp, not --url https://elsewhere.example.com/mcp',
    );
    expect(serverJsonProblems(JSON.parse(run.stdout))).toEqual([]);
  });

  it.each([
    [['--server', 'plain'], 'The MCP server "plain" has no discovery option'],
    [['--server', 'ranged'], 'the registry takes one exact version, such as 1.0.2'],
    [['--server', 'local'], 'has http: false'],
  ])('refuses %j with a usage error that says what to change', async (flags, message) => {
    const error = await failure(...flags, '--url', 'https://x.example.com/mcp', '--out', '-');
    expect(error).toBeInstanceOf(CliUsageError);
    expect(error.message).toContain(message);
  });

  it('asks for --server when the module has several, and names them', async () => {
    const error = await failure('--url', 'https://x.example.com/mcp', '--out', '-');
    expect(error).toBeInstanceOf(ServerSelectionError);
    expect(error.message).toContain('--server shop');
    const unknown = await failure('--server', 'nope', '--url', 'https://x.example.com/mcp');
    expect(unknown.message).toContain('no MCP server named "nope"');
  });

  it('says where it cannot write', async () => {
    const error = await failure(
      '--server',
      'shop',
      '--url',
      'https://x.example.com/mcp',
      '--out',
      join(dir, 'missing', 'server.json'),
    );
    expect(error).toBeInstanceOf(CliUsageError);
    expect(error.message).toContain('ENOENT');
  });
});

/** The usage error of `nestjs-mcp server-json m.js ...argv`. */
const usage = (...argv: string[]) =>
  usageErrorOf(() => parseCliArguments(['server-json', 'm.js', ...argv]));

describe('parseCliArguments for server-json', () => {
  it('reads --url, --server and --out', () => {
    expect(
      parseCliArguments([
        'server-json',
        'm.js',
        '--url',
        'https://mcp.example.com/mcp',
        '--server',
        'shop',
        '--out',
        'shop.json',
      ]),
    ).toMatchObject({
      command: 'server-json',
      module: 'm.js',
      url: 'https://mcp.example.com/mcp',
      server: 'shop',
      out: 'shop.json',
    });
  });

  it.each([
    [[], 'Give --url, the public URL of the MCP endpoint'],
    [['--url', '/mcp'], '--url needs an absolute http(s) URL'],
    [['--url', 'mcp.example.com/mcp'], '--url needs an absolute http(s) URL'],
    [['--url', 'ftp://mcp.example.com/mcp'], '--url needs an absolute http(s) URL'],
    [['--url', 'https://mcp.example.com/mcp#x'], 'without a fragment'],
    [['--url', 'https://user:secret@mcp.example.com/mcp'], '--url holds credentials'],
    [['--url', 'https://a.example/mcp', '--out', ''], '--out needs a file name'],
    [['--url', 'https://a.example/mcp', '--header', 'A: 1'], '--header is not for the server-json'],
    [['--url', 'https://a.example/mcp', '--json'], '--json is not for the server-json'],
    [['--url', 'https://a.example/mcp', '--check', 'x'], '--check is not for the server-json'],
    [['--url', 'https://a.example/mcp', 'extra'], 'Unexpected argument "extra"'],
  ])('refuses %j', (flags, message) => {
    expect(usage(...flags)).toContain(message);
  });

  it('keeps --url to the server-json command', () => {
    expect(() => parseCliArguments(['list', 'm.js', '--url', 'https://a.example/mcp'])).toThrow(
      '--url is for the server-json command',
    );
  });
});
