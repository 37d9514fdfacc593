import { describe, expect, it } from 'vitest';
import {
  parseCliArguments,
  parseHeaders,
  parseToolArguments,
} from '../../lib/cli/cli.arguments.js';
import { CliUsageError } from '../../lib/cli/cli-usage.error.js';
import { summarizeProperties, typeName } from '../../lib/cli/json-schema.summary.js';
import {
  MCP_AUTHORIZATION_ENV,
  resolveCallerRequest,
} from '../../lib/transports/caller.authenticator.js';

describe('parseCliArguments', () => {
  it('reads a call with its flags, in any order', () => {
    expect(
      parseCliArguments([
        '--json',
        'call',
        'dist/app.module.js#AppModule',
        'search',
        '--args',
        '{}',
        '--header',
        'A: 1',
        '--header',
        'B: 2',
        '--server',
        'shop',
      ]),
    ).toEqual({
      command: 'call',
      module: 'dist/app.module.js#AppModule',
      tool: 'search',
      json: true,
      help: false,
      args: '{}',
      headers: ['A: 1', 'B: 2'],
      server: 'shop',
    });
  });

  it.each([
    [['list', 'm.js', 'extra'], 'Unexpected argument "extra"'],
    [['call', 'm.js'], 'Give the tool to call'],
    [['list', 'm.js', '--args', '{}'], '--args is for the call command'],
    [['list', 'm.js', '--json=1'], "--json' does not take an argument"],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCliArguments(argv)).toThrow(CliUsageError);
    expect(() => parseCliArguments(argv)).toThrow(message);
  });
});

describe('parseHeaders and parseToolArguments', () => {
  it('lower-cases header names and keeps values after the first colon', () => {
    expect(parseHeaders(['Authorization: Bearer a:b', 'X-Tenant:acme'])).toEqual({
      authorization: 'Bearer a:b',
      'x-tenant': 'acme',
    });
    expect(parseHeaders([])).toBeUndefined();
    expect(() => parseHeaders(['no colon'])).toThrow('--header needs "Name: value"');
  });

  it('accepts only a JSON object as --args', () => {
    expect(parseToolArguments(undefined)).toEqual({});
    expect(parseToolArguments('{"a":[1]}')).toEqual({ a: [1] });
    expect(() => parseToolArguments('[1]')).toThrow('--args must be a JSON object');
    expect(() => parseToolArguments('{a:1}')).toThrow('--args is not valid JSON');
  });
});

describe('resolveCallerRequest', () => {
  it('lower-cases the header names of a given request, object or factory', async () => {
    expect(await resolveCallerRequest({ headers: { Authorization: 'Bearer x' } })).toEqual({
      headers: { authorization: 'Bearer x' },
    });
    expect(await resolveCallerRequest(async () => ({ user: { id: 1 } }))).toEqual({
      user: { id: 1 },
      headers: {},
    });
  });

  it('falls back to the Authorization header from the environment, else no headers', async () => {
    expect(await resolveCallerRequest(undefined, { [MCP_AUTHORIZATION_ENV]: 'Bearer y' })).toEqual({
      headers: { authorization: 'Bearer y' },
    });
    expect(await resolveCallerRequest(undefined, {})).toEqual({ headers: {} });
  });
});

describe('JSON Schema summaries for list', () => {
  it('names types and constraints the way the table shows them', () => {
    expect(typeName({ type: ['array', 'null'], items: { type: 'string' } })).toBe(
      'string[] | null',
    );
    expect(typeName({ enum: ['a', 'b'] })).toBe('a | b');
    expect(typeName({ $ref: '#/$defs/Address' })).toBe('Address');
    expect(
      summarizeProperties({
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          price: { type: 'number', exclusiveMinimum: 0 },
          id: { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]+$' },
        },
        required: ['id'],
      }),
    ).toEqual([
      {
        name: 'limit',
        type: 'integer',
        required: false,
        constraints: '1..50, default 10',
        description: '',
      },
      { name: 'price', type: 'number', required: false, constraints: '> 0', description: '' },
      { name: 'id', type: 'string', required: true, constraints: 'format uuid', description: '' },
    ]);
  });
});
