import { describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../lib/cli/cli.arguments.js';
import { usageErrorOf } from './cli-run.js';

const MODULE = 'dist/app.module.js';

describe('parseCliArguments: app-types', () => {
  it('reads --server and --out, or --check; stdout without either', () => {
    expect(
      parseCliArguments(['app-types', MODULE, '--server', 'catalog', '--out', 'app-tools.d.ts']),
    ).toEqual({
      command: 'app-types',
      module: MODULE,
      help: false,
      json: false,
      headers: [],
      server: 'catalog',
      out: 'app-tools.d.ts',
    });
    expect(parseCliArguments(['app-types', MODULE, '--check', 'a.d.ts'])).toMatchObject({
      check: 'a.d.ts',
    });
    expect(parseCliArguments(['app-types', MODULE])).not.toHaveProperty('out');
  });

  it.each([
    [['--out', 'a.d.ts', '--check', 'a.d.ts'], 'Give --out or --check, not both'],
    [['--out', ''], '--out needs a file name'],
    [['--check', ''], '--check needs a file name'],
    [['--header', 'A: 1'], '--header is not for the app-types command'],
    [['--as', 'A: 1'], '--as is not for the app-types command'],
    [['--locale', 'de'], '--locale is not for the app-types command'],
    [['--json'], '--json is not for the app-types command'],
    [['--hidden'], '--hidden is for the list command'],
    [['--args', '{}'], '--args is for the call command'],
    [['--url', 'https://x.example/mcp'], '--url is for the server-json command'],
    [['extra'], 'Unexpected argument "extra"'],
  ])('refuses app-types %j with a message that says what to type', (flags, message) => {
    expect(usageErrorOf(() => parseCliArguments(['app-types', MODULE, ...flags]))).toContain(
      message,
    );
  });

  it('asks for the module, and names app-types among the commands', () => {
    expect(usageErrorOf(() => parseCliArguments(['app-types']))).toContain(
      'Give the module: nestjs-mcp app-types <module-file>#<ExportName>',
    );
    expect(usageErrorOf(() => parseCliArguments(['types', MODULE]))).toContain(
      'use list, call, serve, contract, server-json or app-types',
    );
  });

  it('says which commands take --out and --check', () => {
    expect(usageErrorOf(() => parseCliArguments(['list', MODULE, '--out', 'x']))).toContain(
      '--out is for the contract command (and server-json, app-types)',
    );
    expect(usageErrorOf(() => parseCliArguments(['call', MODULE, 't', '--check', 'x']))).toContain(
      '--check is for the contract command (and app-types)',
    );
  });
});
