// The library compiles JSON Schemas with Ajv itself (to read its error objects) but promises
// to accept exactly what the MCP SDK's own validator accepts. The SDK is the oracle: every
// schema and value below gets the same verdict from both.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { compileWithAjv } from '../../lib/schema/json-schema.engine.js';

const CASES: Array<[string, JsonSchema, unknown[]]> = [
  [
    'formats are asserted (ajv-formats)',
    {
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
      },
    },
    [
      { at: '2026-12-01T10:00:00Z', mail: 'a@b.example', link: 'https://x.example/y' },
      { at: 'yesterday' },
      { mail: 'not-an-address' },
      { link: 'example.com' },
      { id: '00000000-0000-4000-8000-000000000000' },
      { id: 'nope' },
    ],
  ],
  [
    'unknown keywords and formats are tolerated (strict: false)',
    { type: 'string', format: 'sku', 'x-mcp-header': 'Region', minLength: 2 },
    ['AB', 'A', 3],
  ],
  [
    '2020-12 without $schema: prefixItems, unevaluatedProperties, dependentRequired',
    {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
      },
      dependentRequired: { card: ['cvc'] },
      unevaluatedProperties: false,
    },
    [{ pair: ['a', 1] }, { pair: [1, 'a'] }, { card: '4242' }, { extra: true }, {}],
  ],
  [
    'draft-07 declared: the classic engine',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      // draft-07's tuple form, which JsonSchema (2020-12) does not describe
      items: [{ type: 'string' }] as unknown as JsonSchema,
      additionalItems: false,
    },
    [['a'], ['a', 'b'], [1]],
  ],
  [
    '2019-09 declared',
    {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { n: { type: 'number', exclusiveMinimum: 0 } },
      required: ['n'],
    },
    [{ n: 1 }, { n: 0 }, {}],
  ],
  [
    'an invalid meta-schema use is taken as written (validateSchema: false)',
    { type: 'object', required: ['a'], properties: { a: { enum: [1, '1', null] } } },
    [{ a: 1 }, { a: '1' }, { a: null }, { a: true }, {}],
  ],
];

describe('the JSON Schema engine agrees with the MCP SDK validator', () => {
  const sdk = new AjvJsonSchemaValidator();

  it.each(CASES)('%s', (_what, schema, values) => {
    const ours = compileWithAjv(schema);
    const theirs = sdk.getValidator(schema as never);
    for (const value of values) {
      expect({ value, valid: ours(value) === undefined }).toEqual({
        value,
        valid: theirs(value).valid,
      });
    }
  });

  it('refuses a dialect the SDK refuses', () => {
    const schema: JsonSchema = { $schema: 'https://example.com/my-dialect', type: 'string' };
    expect(() => sdk.getValidator(schema as never)).toThrow();
    expect(() => compileWithAjv(schema)).toThrow(/unsupported dialect/);
  });
});
