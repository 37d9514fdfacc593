import type { INestApplication } from '@nestjs/common';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SchemaFidelityAppModule,
  SchemaFidelityTools,
} from '../fixtures/schema-fidelity.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

/*
 * Issue 3, "Done when", with both real clients over HTTP: a tool whose DTO has a recursive
 * DTO, a numeric enum, an optional field with a default and an array of nested DTOs lists
 * a schema each client accepts, and calls behave as that schema says; a tool declaring
 * `output: [ProductDto]` returns structured content that validates against the
 * `outputSchema` each client was shown, on each wire.
 */

// An independent 2020-12 validator, strict, as a careful client would use.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);

const textOf = (result: Record<string, any>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text).join('\n');

const category = { name: 'Home', children: [{ name: 'Lighting', children: [{ name: 'Lamps' }] }] };
const validQuery = { category, priority: 2, lines: [{ sku: 'LMP-001', quantity: 1 }] };

// Calls and the field each invalid one names; the listed schema must agree on each.
const CALLS: Array<[string, Record<string, unknown>, string | null]> = [
  ['everything valid', validQuery, null],
  ['limit left out (its default applies)', validQuery, null],
  // Optional properties are listed without null (schema.nullableOptionals: false), and
  // enforcement follows the listing.
  ['limit null (optional: leave it out)', { ...validQuery, limit: null }, '/limit'],
  ['no lines', { ...validQuery, lines: [] }, null],
  ['the name of a numeric enum member', { ...validQuery, priority: 'High' }, '/priority'],
  ['a value outside the numeric enum', { ...validQuery, priority: 4 }, '/priority'],
  ['the priority as a string', { ...validQuery, priority: '2' }, '/priority'],
  [
    'an error three levels down the recursive DTO',
    { ...validQuery, category: { name: 'A', children: [{ name: 'B', children: [{ name: '' }] }] } },
    '/category/children/0/children/0/name',
  ],
  [
    'an unknown property inside the recursive DTO',
    { ...validQuery, category: { name: 'A', children: [{ name: 'B', slug: 'b' }] } },
    '/category/children/0/slug',
  ],
  ['the recursive DTO left out', { priority: 2, lines: [] }, '/category'],
  [
    'an invalid array item',
    {
      ...validQuery,
      lines: [
        { sku: 'LMP-001', quantity: 1 },
        { sku: 'lmp', quantity: 0 },
      ],
    },
    '/lines/1',
  ],
  ['too many array items', { ...validQuery, lines: Array(6).fill(validQuery.lines[0]) }, '/lines'],
  ['a limit above its maximum', { ...validQuery, limit: 51 }, '/limit'],
  ['a decimal limit', { ...validQuery, limit: 2.5 }, '/limit'],
];

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(CLIENTS)('schema fidelity over Streamable HTTP, $era', ({ era, connect }) => {
    const legacy = era.startsWith('2025');
    let app: INestApplication;
    let client: TestClient;
    let tools: Array<Record<string, any>>;

    beforeAll(async () => {
      const running = await startApp(SchemaFidelityAppModule, { adapter, logger: logs });
      app = running.app;
      client = await connect(running.url);
      ({ tools } = await client.listTools());
    });

    afterAll(async () => {
      await client?.close();
      await app?.close();
    });

    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;

    describe('a DTO with a recursive DTO, a numeric enum, a default and an array of DTOs', () => {
      it('lists a self-contained 2020-12 schema that says all of it', () => {
        const schema = tool('search_catalog').inputSchema;
        expect(() => ajv.compile(schema)).not.toThrow();
        expect(schema).toStrictEqual({
          type: 'object',
          properties: {
            category: { $ref: '#/$defs/CategoryDto' },
            priority: { type: 'integer', enum: [1, 2, 3] },
            limit: {
              description: 'How many results, at most 50.',
              type: 'integer',
              minimum: 1,
              maximum: 50,
              default: 10,
              examples: [10],
            },
            lines: { type: 'array', maxItems: 5, items: { $ref: '#/$defs/LineDto' } },
          },
          required: ['category', 'priority', 'lines'],
          additionalProperties: false,
          $defs: {
            CategoryDto: {
              type: 'object',
              properties: {
                name: {
                  description: 'The category name, as shown in the shop',
                  type: 'string',
                  minLength: 1,
                  maxLength: 40,
                },
                children: { type: 'array', items: { $ref: '#/$defs/CategoryDto' } },
              },
              required: ['name'],
              additionalProperties: false,
            },
            LineDto: {
              type: 'object',
              properties: {
                sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{3}$' },
                quantity: { type: 'integer', minimum: 1 },
              },
              required: ['sku', 'quantity'],
              additionalProperties: false,
            },
          },
        });
      });

      it.each(CALLS)(
        '%s: the server answers as the listed schema says',
        async (_case, args, pointer) => {
          const schemaAccepts = ajv.validate(tool('search_catalog').inputSchema, args);
          const result = await client.callTool('search_catalog', args);
          expect(!result.isError, textOf(result)).toBe(schemaAccepts);
          if (pointer === null) {
            expect(schemaAccepts).toBe(true);
            return;
          }
          expect(schemaAccepts).toBe(false);
          expect(textOf(result)).toContain(`- ${pointer}`);
        },
      );

      it('hands the method DTO instances, with the default of a left-out limit', async () => {
        const result = await client.callTool('search_catalog', validQuery);
        expect(result.structuredContent).toEqual({
          tool: 'search_catalog',
          limit: 10,
          priority: 2,
          lines: 1,
          dtoClasses: ['CatalogQueryDto', 'CategoryDto', 'LineDto'],
        });
        const service = app.get(SchemaFidelityTools);
        expect(service.lastQuery?.category.children?.[0]?.children?.[0]?.constructor.name).toBe(
          'CategoryDto',
        );
      });

      it('lists the allowed values of the enum, as JSON, in the error', async () => {
        const result = await client.callTool('search_catalog', { ...validQuery, priority: 'High' });
        expect(textOf(result)).toBe(
          'Invalid arguments:\n- /priority: priority must be one of 1, 2, 3',
        );
        expect(result.structuredContent.issues).toEqual([
          {
            path: '/priority',
            constraint: 'enum',
            message: 'priority must be one of 1, 2, 3',
            allowed: [1, 2, 3],
          },
        ]);
      });
    });

    describe('a declared output', () => {
      it('lists the outputSchema of [ProductDto] in the shape the negotiated revision uses', () => {
        const { outputSchema } = tool('list_products');
        expect(() => ajv.compile(outputSchema)).not.toThrow();
        if (legacy) {
          // 2025-11-25: an object root, the list under "result" (refs rewritten by the SDK).
          expect(outputSchema).toMatchObject({
            type: 'object',
            required: ['result'],
            properties: {
              result: { type: 'array', items: { $ref: '#/properties/result/$defs/ProductDto' } },
            },
          });
        } else {
          expect(outputSchema).toMatchObject({
            type: 'array',
            items: { $ref: '#/$defs/ProductDto' },
          });
        }
        const natural = legacy ? outputSchema.properties.result : outputSchema;
        expect(Object.keys(natural.$defs.ProductDto.properties)).toEqual([
          'id',
          'name',
          'price',
          'createdAt',
          'tags',
        ]);
      });

      it('returns structured content that validates against the schema the client was shown', async () => {
        const result = await client.callTool('list_products', { sortBy: 'price' });
        expect(result.isError).toBeFalsy();
        const products = [
          {
            id: 'p1',
            name: 'Lamp',
            price: 30,
            createdAt: '2026-11-01T08:00:00.000Z',
            tags: [{ name: 'new' }],
          },
          {
            id: 'p2',
            name: 'Desk',
            price: 120,
            createdAt: '2026-11-01T08:00:00.000Z',
            tags: [{ name: 'new' }],
          },
        ];
        expect(result.structuredContent).toEqual(legacy ? { result: products } : products);
        expect(ajv.validate(tool('list_products').outputSchema, result.structuredContent)).toBe(
          true,
        );
        expect(JSON.stringify(result)).not.toContain('supplierCost');
      });

      it('returns a scalar output the same way', async () => {
        const { outputSchema } = tool('count_products');
        expect(outputSchema).toEqual(
          legacy
            ? { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] }
            : { type: 'number' },
        );
        const result = await client.callTool('count_products', {});
        expect(result.structuredContent).toEqual(legacy ? { result: 2 } : 2);
        expect(ajv.validate(outputSchema, result.structuredContent)).toBe(true);
        expect(textOf(result)).toBe('2');
      });

      it('refuses a result that breaks the declared output, naming the mismatch', async () => {
        const result = await client.callTool('broken_products', {});
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(textOf(result)).toBe(
          'Internal error: the result of "broken_products" does not match its declared output ' +
            'schema, so it was not sent:\n' +
            '- /0/price: price must be >= 0\n' +
            '- /0/createdAt: createdAt must match format "date-time"',
        );
        // The app's developer learns of it too: the log names the method and each mismatch.
        logs.expectError(
          '[ToolOutputValidator] Tool "broken_products" (SchemaFidelityTools.brokenProducts) returned a ' +
            'result that does not match its declared output; it was not sent',
          '- /0/price: price must be >= 0',
          '- /0/createdAt: createdAt must match format "date-time"',
        );
      });

      it('answers invalid arguments with an error the client reads, not an exception', async () => {
        const result = await client.callTool('list_products', { sortBy: 'colour' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('- /sortBy: sortBy must be one of "price", "name"');
        // The v1 client checks structuredContent against the output schema even on errors.
        if (legacy) expect(result.structuredContent).toBeUndefined();
        else expect(result.structuredContent.issues[0].allowed).toEqual(['price', 'name']);
      });
    });

    it('passes rich content through: text, image, resource link, embedded resource', async () => {
      const result = await client.callTool('product_sheet', {});
      expect(result.content).toEqual([
        { type: 'text', text: 'Lamp, 30 EUR' },
        { type: 'image', data: 'iVBORw==', mimeType: 'image/png' },
        {
          type: 'resource_link',
          uri: 'catalog://products/p1',
          name: 'Lamp',
          mimeType: 'application/json',
        },
        {
          type: 'resource',
          resource: {
            uri: 'catalog://products/p1.csv',
            text: 'id,name\np1,Lamp',
            mimeType: 'text/csv',
          },
        },
      ]);
    });
  });
});
