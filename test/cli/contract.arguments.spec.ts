import { describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../lib/cli/cli.arguments.js';
import { usageErrorOf } from './cli-run.js';
import { parseContractCallers } from '../../lib/cli/contract-caller.parser.js';

const MODULE = 'dist/app.module.js';

describe('parseCliArguments: contract', () => {
  it('reads --out, --as, --locale and --server', () => {
    expect(
      parseCliArguments([
        'contract',
        MODULE,
        '--out',
        'mcp-contract.json',
        '--as',
        'reader=Authorization: Bearer r',
        '--as',
        'Authorization: Bearer a',
        '--locale',
        'de',
        '--locale',
        'en-US',
        '--server',
        'shop',
      ]),
    ).toEqual({
      command: 'contract',
      module: MODULE,
      help: false,
      json: false,
      headers: [],
      out: 'mcp-contract.json',
      callers: ['reader=Authorization: Bearer r', 'Authorization: Bearer a'],
      locales: ['de', 'en-US'],
      server: 'shop',
    });
    expect(parseCliArguments(['contract', MODULE, '--check', 'c.json'])).toMatchObject({
      check: 'c.json',
    });
  });

  it.each([
    [[], 'Give --out <file> to write the contract or --check <file>'],
    [['--out', 'a.json', '--check', 'a.json'], 'Give --out or --check, not both'],
    [['--out', ''], '--out needs a file name'],
    [['--out', 'a.json', '--header', 'A: 1'], 'takes its callers with --as, one per caller'],
    [['--out', 'a.json', '--json'], '--json is for list and call'],
    [['--out', 'a.json', '--locale', 'de_DE'], '--locale needs a language tag such as de or en-US'],
    [['--out', 'a.json', '--locale', 'de', '--locale', 'DE'], '--locale DE is given twice'],
    [['--out', 'a.json', 'extra'], 'Unexpected argument "extra"'],
  ])('refuses contract %j with a message that says what to type', (flags, message) => {
    expect(usageErrorOf(() => parseCliArguments(['contract', MODULE, ...flags]))).toContain(
      message,
    );
  });

  it.each(['--as', '--out', '--check'])('keeps %s to the contract command', (flag) => {
    expect(usageErrorOf(() => parseCliArguments(['list', MODULE, flag, 'x']))).toContain(
      `${flag} is for the contract command`,
    );
  });

  it('takes one --locale on list, call and serve, a language tag', () => {
    expect(parseCliArguments(['list', MODULE, '--locale', 'de']).locales).toEqual(['de']);
    expect(usageErrorOf(() => parseCliArguments(['list', MODULE, '--locale', 'x']))).toContain(
      '--locale needs a language tag such as de or en-US (got "x")',
    );
    expect(
      usageErrorOf(() => parseCliArguments(['serve', MODULE, '--locale', 'de', '--locale', 'en'])),
    ).toContain('--locale is given 2 times; list, call and serve take one');
  });

  it('names contract among the commands', () => {
    expect(usageErrorOf(() => parseCliArguments(['snapshot', MODULE]))).toContain(
      'use list, call, serve, contract, server-json or app-types',
    );
  });
});

describe('parseContractCallers', () => {
  it('is the anonymous caller alone without --as', () => {
    expect(parseContractCallers([])).toEqual([{ label: 'anonymous', headers: {} }]);
  });

  it('labels an unnamed caller by its redacted header, a named one by its label', () => {
    const [unnamed, named, anonymous] = parseContractCallers([
      'Authorization: Bearer admin-token',
      'reader=Authorization: Bearer reader-token',
      'anonymous',
    ]);
    expect(unnamed!.label).toMatch(/^authorization: Bearer <sha256:[0-9a-f]{8}>$/);
    expect(unnamed!.headers).toEqual({ authorization: 'Bearer admin-token' });
    expect(named).toEqual({ label: 'reader', headers: { authorization: 'Bearer reader-token' } });
    expect(anonymous).toEqual({ label: 'anonymous', headers: {} });
  });

  it('adds the headers of a repeated label to one caller, and reads = in a value as the value', () => {
    expect(
      parseContractCallers([
        'tenant=Authorization: Bearer abc==',
        'tenant=X-Tenant: acme',
        'Authorization: Basic dXNlcjpwYXNz==',
      ]),
    ).toEqual([
      { label: 'tenant', headers: { authorization: 'Bearer abc==', 'x-tenant': 'acme' } },
      {
        label: expect.stringMatching(/^authorization: Basic <sha256:[0-9a-f]{8}>$/),
        headers: { authorization: 'Basic dXNlcjpwYXNz==' },
      },
    ]);
  });

  it.each([
    [['Bearer secret-value'], '--as needs a header "Name: value"'],
    [['re ader=A: 1'], 'the caller\'s label "re ader" may hold'],
    [['anonymous=Authorization: Bearer x'], '"anonymous" is the caller without credentials'],
    [['r=A: 1', 'r=a: 2'], 'the caller r has the header a twice'],
    [['A: 1', 'a: 1'], 'twice; give each caller once'],
    [['anonymous', 'anonymous'], 'gives the caller anonymous twice'],
  ])('refuses %j, without printing the credential', (flags, message) => {
    const text = usageErrorOf(() => parseContractCallers(flags));
    expect(text).toContain(message);
    expect(text).not.toContain('secret-value');
  });
});
