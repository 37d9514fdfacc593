import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

const READ_TOOLS = ['catalog_get', 'get_product', 'search_products'];
const WRITE_TOOLS = [
  'catalog_delete',
  'catalog_update',
  'create_product',
  'delete_product',
  'reindex_catalog',
  'restock_product',
];
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/** What `BearerTokenGuard` answers to a caller without a valid token, on any route. */
const UNAUTHORIZED = {
  statusCode: 401,
  message: 'Send "Authorization: Bearer <token>" with a reader or an admin token',
};

/**
 * The sample app exactly as `npm start` serves it (`SAMPLE_ADAPTER=fastify` for Fastify),
 * driven by the real clients.
 */
describe.each(ADAPTERS)('the sample catalog on %s', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startApp(AppModule, { adapter });
    app = running.app;
  });

  afterAll(() => running?.close());

  describe.each([
    { what: 'no token', authorization: undefined },
    { what: 'an unknown token', authorization: 'Bearer not-a-token' },
    { what: 'another scheme', authorization: `Basic ${SAMPLE_DEFAULTS.adminToken}` },
  ])('a caller with $what', ({ authorization }) => {
    it.each([
      {
        route: 'the MCP endpoint',
        send: () =>
          request(app.getHttpServer())
            .post('/mcp')
            .set('Accept', 'application/json, text/event-stream')
            .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
      { route: 'the REST API', send: () => request(app.getHttpServer()).get('/products') },
    ])('gets 401 with a Bearer challenge from $route, never 500', async ({ send }) => {
      const req = send();
      if (authorization) req.set('Authorization', authorization);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="catalog"');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject(UNAUTHORIZED);
    });
  });

  it('serves its REST API to a token, with the query converted by the global pipe', async () => {
    const res = await request(app.getHttpServer())
      .get('/products?category=garden&limit=2')
      .set('Authorization', `Bearer ${SAMPLE_DEFAULTS.readerToken}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.items.every((p: { category: string }) => p.category === 'garden')).toBe(true);
  });

  describe.each(CLIENTS)('driven by the $era', ({ connect }) => {
    let reader: TestClient;
    let admin: TestClient;

    beforeAll(async () => {
      reader = await connect(running.url, SAMPLE_DEFAULTS.readerToken);
      admin = await connect(running.url, SAMPLE_DEFAULTS.adminToken);
    });

    afterAll(async () => {
      await reader?.close();
      await admin?.close();
    });

    it('lists its tools with input schemas derived from the DTOs and honest hints', async () => {
      // The reader's guards refuse the write tools, so it does not even see them.
      expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
      const { tools } = await admin.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([...WRITE_TOOLS, ...READ_TOOLS].toSorted());
      // Read-only exactly when it only reads (the DELETE route's hints, inferred, say destructive).
      for (const tool of tools)
        expect(tool.annotations.readOnlyHint === true).toBe(READ_TOOLS.includes(tool.name));
      const search = tools.find((tool) => tool.name === 'search_products')!;
      expect(search.inputSchema).toMatchObject({
        type: 'object',
        additionalProperties: false,
        properties: {
          // Optional arguments are listed with their own type only (the sample keeps the
          // default of `schema.nullableOptionals`).
          category: { enum: ['books', 'electronics', 'garden', 'kitchen', 'toys'] },
          limit: { type: 'integer', minimum: 1, maximum: 50 },
        },
      });
      expect(search.inputSchema.required).toBeUndefined();
      const create = tools.find((tool) => tool.name === 'create_product')!;
      expect(create.inputSchema.required).toEqual(expect.arrayContaining(['sku', 'name', 'price']));
      // get_product answers with the product card (docs/apps.md), whose Restock button calls
      // restock_product: hosts keep that one from the model, its scope guards it all the same.
      const view = 'ui://catalog/product-card';
      expect(tools.find((tool) => tool.name === 'get_product')!._meta).toMatchObject({
        ui: { resourceUri: view },
        'ui/resourceUri': view,
      });
      expect(tools.find((tool) => tool.name === 'restock_product')!._meta).toMatchObject({
        ui: { visibility: ['app'] },
      });
      // Both declare the product they return (ProductDto), which the card's types come from
      // (sample/views/app-tools.d.ts); the other tools declare no output.
      for (const name of ['get_product', 'restock_product']) {
        expect(tools.find((tool) => tool.name === name)!.outputSchema).toMatchObject({
          type: 'object',
          additionalProperties: false,
          required: ['id', 'sku', 'name', 'description', 'category', 'price', 'stock', 'tags'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            category: { enum: ['books', 'electronics', 'garden', 'kitchen', 'toys'] },
            stock: { type: 'integer', minimum: 0 },
            tags: { type: 'array', items: { type: 'string' } },
          },
        });
      }
      expect(search.outputSchema).toBeUndefined();
    });

    it('searches the seeded catalog', async () => {
      const result = await reader.callTool('search_products', { category: 'books', limit: 2 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.items).toHaveLength(2);
      expect(result.structuredContent.total).toBeGreaterThan(2);
      const [first] = result.structuredContent.items;
      const fetched = await reader.callTool('get_product', { id: first.id });
      expect(fetched.structuredContent).toEqual(first);
    });

    it('names the field of an invalid argument and does not search', async () => {
      const result = await reader.callTool('search_products', { limit: 500, colour: 'red' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('/limit');
      expect(textOf(result)).toContain('/colour');
    });

    it('refuses the write tools to the reader token and lets the admin create and delete', async () => {
      const input = {
        sku: `TST-${String(Math.floor(Math.random() * 9000) + 1000)}`,
        name: 'Test kettle',
        description: 'A kettle for the tests',
        category: 'kitchen',
        price: 19.5,
        stock: 3,
      };
      const refused = await reader.callTool('create_product', input);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'Forbidden (403): Missing scope(s): catalog.write; the caller has catalog.read.',
      );

      const created = await admin.callTool('create_product', input);
      expect(created.isError).toBeFalsy();
      expect(created.structuredContent).toMatchObject({ sku: input.sku, price: 19.5 });
      const deleted = await admin.callTool('delete_product', { id: created.structuredContent.id });
      expect(deleted.structuredContent.id).toBe(created.structuredContent.id);
      const gone = await admin.callTool('get_product', { id: created.structuredContent.id });
      expect(textOf(gone)).toContain('Not Found (404)');
    });

    it('lists and reads its resources: the categories and a product by id', async () => {
      const { resources } = await reader.sdk.listResources();
      expect(resources).toEqual([
        expect.objectContaining({ uri: 'catalog://categories', mimeType: 'application/json' }),
        expect.objectContaining({ uri: 'mcp://catalog/manifest', mimeType: 'application/json' }),
        expect.objectContaining({
          uri: 'ui://catalog/product-card',
          mimeType: 'text/html;profile=mcp-app',
        }),
      ]);
      // The product card, as hosts of MCP Apps read it: HTML with the CSP it asks for.
      const card = await reader.sdk.readResource({ uri: 'ui://catalog/product-card' });
      expect(card.contents).toEqual([
        expect.objectContaining({
          uri: 'ui://catalog/product-card',
          mimeType: 'text/html;profile=mcp-app',
          _meta: {
            ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
          },
        }),
      ]);
      expect(card.contents[0].text).toMatch(/^<!doctype html>/i);
      const { resourceTemplates } = await reader.sdk.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'catalog://products/{id}', name: 'product' }),
      ]);
      const categories = await reader.sdk.readResource({ uri: 'catalog://categories' });
      const counts = JSON.parse(categories.contents[0].text);
      expect(counts.map((c: { category: string }) => c.category)).toEqual([
        'books',
        'electronics',
        'garden',
        'kitchen',
        'toys',
      ]);
      const found = await reader.callTool('search_products', { category: 'toys', limit: 1 });
      const id = found.structuredContent.items[0].id;
      const product = await reader.sdk.readResource({ uri: `catalog://products/${id}` });
      expect(JSON.parse(product.contents[0].text)).toMatchObject({ id, category: 'toys' });
      const missing = await reader.sdk
        .readResource({ uri: 'catalog://products/00000000-0000-4000-8000-000000000000' })
        .catch((error: unknown) => error);
      expect(String((missing as Error).message)).toContain('Resource not found');
    });

    it('offers the restock_plan prompt, with its category completed and the stock embedded', async () => {
      const { prompts } = await reader.sdk.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({
          name: 'restock_plan',
          arguments: [
            expect.objectContaining({
              name: 'category',
              required: true,
              description: expect.stringContaining('books, electronics'),
            }),
            expect.objectContaining({ name: 'weeks', required: false }),
          ],
        }),
      ]);
      const completion = await reader.sdk.complete({
        ref: { type: 'ref/prompt', name: 'restock_plan' },
        argument: { name: 'category', value: 'g' },
      });
      expect(completion.completion.values).toEqual(['garden']);
      const prompt = await reader.sdk.getPrompt({
        name: 'restock_plan',
        arguments: { category: 'garden', weeks: '6' },
      });
      expect(prompt.messages[0].content).toMatchObject({
        type: 'resource',
        resource: { uri: 'catalog://categories/garden/stock', mimeType: 'application/json' },
      });
      expect(prompt.messages[1].content.text).toContain('next 6 weeks');
    });

    it('refuses a client without a token at the route, before any MCP processing', async () => {
      await expect(connect(running.url)).rejects.toThrow(/401|Unauthorized/);
    });
  });
});
