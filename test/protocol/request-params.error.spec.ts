import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { asInvalidParams } from '../../lib/protocol/request-params.error.js';

/** What the SDK throws when a request's params fail its schema: the zod issues as JSON. */
const dump = (issues: object[]) => JSON.stringify(issues, null, 2);

describe('asInvalidParams', () => {
  it('turns the SDK’s failed parse (a plain Error with the issues’ JSON) into -32602', () => {
    const error = new Error(
      dump([
        {
          expected: 'string',
          code: 'invalid_type',
          path: ['params', 'cursor'],
          message: 'Invalid input: expected string, received number',
        },
      ]),
    );
    const mapped = asInvalidParams('tools/list', error);
    expect(mapped).toBeInstanceOf(ProtocolError);
    expect(mapped).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: 'Invalid params for tools/list: params.cursor: expected string, received number',
    });
  });

  it('rewords the issues of the SDK’s tools/call check, one after the other', () => {
    const error = new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid tools/call request: ${dump([
        {
          code: 'invalid_type',
          path: ['params', 'name'],
          message: 'Invalid input: expected string, received number',
        },
        { code: 'custom', path: [], message: 'Something else' },
      ])}`,
    );
    expect(asInvalidParams('tools/call', error)).toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message:
        'Invalid params for tools/call: params.name: expected string, received number; Something else',
    });
  });

  it('returns any other error as it is', () => {
    const others = [
      new Error('boom'),
      new Error('[1, 2]'),
      new TypeError(dump([{ path: ['x'], message: 'from a handler' }])),
      new ProtocolError(ProtocolErrorCode.InternalError, dump([{ path: [], message: 'x' }])),
      'not an error',
    ];
    for (const error of others) expect(asInvalidParams('tools/list', error)).toBe(error);
  });
});
