/**
 * The sample's REST routes published as tools (issue 14, items 6 and "Done when"): the
 * `CatalogController` routes GET, PATCH and DELETE /products/:id are tools beside the
 * service's, with the merged schema of their `@Param()` and `@Body()`, hints from their HTTP
 * method, their own guards and pipes, a legacy alias, the manifest per caller, and, in the
 * build with `nestjs-mcp/plugin`, descriptions from their docblocks.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { before } from 'nestjs-mcp/plugin';
import { McpTestClient } from 'nestjs-mcp/testing';
import request from 'supertest';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { buildViews } from '../../scripts/single-file-html.mjs';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { REPO_ROOT as ROOT } from '../support/readme-blocks.js';

const logs = captureLogs();

const READER = { authorization: `Bearer ${SAMPLE_DEFAULTS.readerToken}` };
const ADMIN = { authorization: `Bearer ${SAMPLE_DEFAULTS.adminToken}` };
const ERAS = ['2026-07-28', '2025-11-25'] as const;
const MANIFEST = 'mcp://catalog/manifest';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The route tools and the REST route each one is. */
const ROUTE_TOOLS = ['catalog_delete', 'catalog_get', 'catalog_update'];
const PRODUCT_FIELDS = ['name', 'description', 'category', 'price', 'stock', 'tags'];

let nextSku = 1000 + Math.floor(Math.random() * 8000);
const newProduct = () => ({
  sku: `RTE-${nextSku++}`,
  name: 'Route kettle',
  description: 'A kettle for the route tool tests',
  category: 'kitchen',
  price: 24.5,
  stock: 4,
  tags: ['steel'],
});

/** The manifest a caller reads: each tool's name and the scopes it needs. */
async function manifestOf(client: McpTestClient): Promise<Map<string, string[]>> {
  const answer = await client.readResource(MANIFEST).assertOk();
  const parsed = JSON.parse(answer.result!.contents[0].text);
  expect(parsed.server).toBe('catalog');
  return new Map<string, string[]>(
    parsed.tools.map((tool: { name: string; scopes: string[] }) => [tool.name, tool.scopes]),
  );
}

/** A value without its `description` texts. */
const withoutTexts = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, inner) => (key === 'description' ? undefined : inner)));

describe.each(ADAPTERS)('the sample routes as tools on %s', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startApp(AppModule, { adapter, logger: logs });
    app = running.app;
  });

  afterAll(() => running?.close());

  const server = () => request(app.getHttpServer());

  describe.each(ERAS)('on protocol %s', (protocolVersion) => {
    let reader: McpTestClient;
    let admin: McpTestClient;

    beforeAll(async () => {
      reader = await McpTestClient.connect(app, { headers: READER, protocolVersion });
      admin = reader.as(ADMIN);
    });

    afterAll(() => reader?.close());

    /** A new product, made with the service's tool, so each test changes its own. */
    async function created(): Promise<Record<string, any>> {
      const answer = await admin.callTool('create_product', newProduct()).assertOk();
      return answer.result!.structuredContent;
    }

    it('lists the routes beside the service tools, with merged schemas and hints from the HTTP method', async () => {
      const { tools } = (await admin.listTools().assertOk()).result!;
      const byName = new Map(tools.map((tool) => [tool.name as string, tool]));
      expect([...byName.keys()]).toEqual(
        expect.arrayContaining([...ROUTE_TOOLS, 'create_product', 'get_product']),
      );

      // GET /products/:id: the params DTO is the arguments.
      const get = byName.get('catalog_get')!;
      expect(get.inputSchema).toMatchObject({
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid' } },
        required: ['id'],
        additionalProperties: false,
      });
      expect(Object.keys(get.inputSchema.properties)).toEqual(['id']);
      expect(get.annotations).toEqual({ readOnlyHint: true });

      // PATCH /products/:id: @Param('id', ParseUUIDPipe) and the body DTO, in one object.
      const update = byName.get('catalog_update')!;
      expect(update.inputSchema).toMatchObject({
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          category: { enum: ['books', 'electronics', 'garden', 'kitchen', 'toys'] },
          price: { type: 'number', minimum: 0.01, maximum: 100_000 },
          stock: { type: 'integer', minimum: 0 },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['id'],
        additionalProperties: false,
      });
      expect(Object.keys(update.inputSchema.properties).toSorted()).toEqual(
        ['id', ...PRODUCT_FIELDS].toSorted(),
      );
      expect(update.annotations).toEqual({ readOnlyHint: false });
      expect(update.title).toBe('Update a product');

      // DELETE /products/:id.
      expect(byName.get('catalog_delete')!.annotations).toEqual({ destructiveHint: true });
      // The service's own tools keep their explicit hints.
      expect(byName.get('delete_product')!.annotations).toMatchObject({ destructiveHint: true });
    });

    it('never lists the alias', async () => {
      const { tools } = (await admin.listTools().assertOk()).result!;
      expect(tools.map((tool) => tool.name)).not.toContain('Catalog.update');
    });

    it('gets, updates and deletes a product by its routes, as the REST API does', async () => {
      const product = await created();
      await admin
        .callTool('catalog_get', { id: product.id })
        .assertOk()
        .assertStructured({ id: product.id, sku: product.sku, price: 24.5 });

      await admin
        .callTool('catalog_update', { id: product.id, price: 19.9, tags: ['steel', 'sale'] })
        .assertOk()
        .assertStructured({ id: product.id, sku: product.sku, price: 19.9, stock: 4 });
      // The route changed the catalog the REST API serves.
      const rest = await request(app.getHttpServer()).get(`/products/${product.id}`).set(READER);
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ price: 19.9, tags: ['steel', 'sale'] });

      await admin.callTool('catalog_delete', { id: product.id }).assertOk();
      await reader
        .callTool('catalog_get', { id: product.id })
        .assertError(`Not Found (404): No product with id ${product.id}`);
      expect(
        (await request(app.getHttpServer()).get(`/products/${product.id}`).set(READER)).status,
      ).toBe(404);
    });

    it("runs the route's guards: a reader can read by route, but neither update nor delete", async () => {
      const product = await created();
      const { tools } = (await reader.listTools().assertOk()).result!;
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('catalog_get');
      expect(names).not.toContain('catalog_update');
      expect(names).not.toContain('catalog_delete');
      await reader.callTool('catalog_get', { id: product.id }).assertOk();

      for (const [name, args] of [
        ['catalog_update', { id: product.id, price: 1 }],
        ['catalog_delete', { id: product.id }],
      ] as const) {
        await reader
          .callTool(name, args)
          .assertError('Forbidden (403): This tool needs the admin role; the caller has reader');
      }
      await admin.callTool('catalog_get', { id: product.id }).assertStructured({ price: 24.5 });
    });

    it('checks the arguments against the merged schema before the route runs', async () => {
      const answer = await admin
        .callTool('catalog_update', { id: 'not-a-uuid', price: -1, colour: 'red' })
        .assertError();
      const paths = answer.result!.structuredContent.issues.map((issue: any) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(['/id', '/price', '/colour']));
      await admin.callTool('catalog_update', { price: 3 }).assertError('/id');
      await admin
        .callTool('catalog_update', { id: MISSING_ID, price: 3 })
        .assertError(`Not Found (404): No product with id ${MISSING_ID}`);
    });

    it('answers to the legacy name Catalog.update, logging it as deprecated once', async () => {
      const product = await created();
      // The alias is the same tool: the route's guards refuse the reader there too.
      await reader
        .callTool('Catalog.update', { id: product.id, stock: 1 })
        .assertError('Forbidden (403): This tool needs the admin role; the caller has reader');
      await admin
        .callTool('Catalog.update', { id: product.id, stock: 40 })
        .assertOk()
        .assertStructured({ id: product.id, stock: 40 });
      await admin.callTool('Catalog.update', { id: product.id, stock: 41 }).assertOk();
      const deprecations = logs
        .messages('warn', 'DeprecatedAliases')
        .filter((message) => message.includes('"Catalog.update"'));
      // Once per server: on the second protocol, the first one's calls have logged it.
      expect(deprecations).toHaveLength(protocolVersion === ERAS[0] ? 1 : 0);
      if (protocolVersion === ERAS[0]) {
        expect(deprecations[0]).toContain('deprecated alias of "catalog_update"');
      }
    });

    it('gives the reader and the admin manifests that differ exactly by the scopes they have', async () => {
      const ofReader = await manifestOf(reader);
      const ofAdmin = await manifestOf(admin);
      expect(Object.fromEntries(ofReader)).toEqual({
        catalog_get: ['catalog.read'],
        get_product: ['catalog.read'],
        search_products: ['catalog.read'],
      });
      // What the admin sees besides: exactly the tools that need the scope it has in addition.
      const extra = [...ofAdmin].filter(([name]) => !ofReader.has(name));
      expect(Object.fromEntries(extra)).toEqual({
        catalog_delete: ['catalog.write'],
        catalog_update: ['catalog.write'],
        create_product: ['catalog.write'],
        delete_product: ['catalog.write'],
        reindex_catalog: ['catalog.write'],
        restock_product: ['catalog.write'],
      });
      for (const [name, scopes] of ofReader) expect(ofAdmin.get(name)).toEqual(scopes);
    });
  });

  describe('the REST API, unchanged', () => {
    it('updates with PATCH /products/:id for an admin, and validates the id and the body', async () => {
      const created = await server().post('/products').set(ADMIN).send(newProduct());
      expect(created.status).toBe(201);
      const id = created.body.id;

      const patched = await server().patch(`/products/${id}`).set(ADMIN).send({ stock: 9 });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id, stock: 9, price: 24.5 });

      const badId = await server().patch('/products/not-a-uuid').set(ADMIN).send({ stock: 9 });
      expect(badId.status).toBe(400);
      expect(badId.body.message).toBe('Validation failed (uuid is expected)');
      const badBody = await server().patch(`/products/${id}`).set(ADMIN).send({ sku: 'ABC-1234' });
      expect(badBody.status).toBe(400);
      expect(badBody.body.message).toEqual(['property sku should not exist']);

      const refused = await server().patch(`/products/${id}`).set(READER).send({ stock: 1 });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'This operation needs the admin role; the caller has reader',
      );

      expect((await server().delete(`/products/${id}`).set(READER)).status).toBe(403);
      const deleted = await server().delete(`/products/${id}`).set(ADMIN);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await server().get(`/products/${id}`).set(ADMIN)).status).toBe(404);
    });
  });
});

/**
 * The sample built as `npm run build:sample` builds it (scripts/build-sample.mjs): with the
 * `nestjs-mcp/plugin` transformer, which records the docblocks. Here each file is compiled
 * alone (`ts.transpileModule()`, as ts-jest with `isolatedModules` does) into a gitignored
 * folder of the repository, so that the compiled sample still imports 'nestjs-mcp' as lib/.
 */
describe.each(ERAS)(
  'the sample built with nestjs-mcp/plugin, on protocol %s',
  (protocolVersion) => {
    const outDir = join(ROOT, '.vitest-sample-plugin', `${process.pid}-${protocolVersion}`);
    const started: Array<{ running: RunningApp; client: McpTestClient }> = [];
    let admin: McpTestClient;
    let tools: Map<string, Record<string, any>>;
    /** The same sample compiled the same way, but without the plugin. */
    let plainTools: Map<string, Record<string, any>>;

    /** Compiles the sample, starts it and lists its tools as the admin. */
    async function build(label: string, plugin: boolean) {
      const dir = join(outDir, label);
      compileSample(dir, plugin);
      const compiled = await import(pathToFileURL(join(dir, 'app.module.js')).href);
      // The MCP Apps views, built as build-sample.mjs builds them, where this build reads them.
      await buildViews(join(ROOT, 'sample', 'views'), compiled.VIEWS_DIR);
      const running = await startApp(compiled.AppModule, { logger: logs });
      const client = await McpTestClient.connect(running.app, { headers: ADMIN, protocolVersion });
      started.push({ running, client });
      const { tools: listed } = (await client.listTools().assertOk()).result!;
      return { client, tools: new Map(listed.map((tool) => [tool.name as string, tool])) };
    }

    beforeAll(async () => {
      ({ client: admin, tools } = await build('plugin', true));
      ({ tools: plainTools } = await build('plain', false));
    });

    afterAll(async () => {
      for (const { running, client } of started) {
        await client.close();
        await running.close();
      }
      rmSync(outDir, { recursive: true, force: true });
    });

    it('changes nothing but descriptions, and only with the plugin', () => {
      expect(withoutTexts([...plainTools])).toEqual(withoutTexts([...tools]));
      for (const name of ROUTE_TOOLS) expect(plainTools.get(name)!.description).toBeUndefined();
      const plainUpdate = plainTools.get('catalog_update')!.inputSchema.properties;
      expect(Object.values(plainUpdate).map((p: any) => p.description)).toEqual(
        Object.values(plainUpdate).map(() => undefined),
      );
      // A service tool's explicit description is the same either way.
      expect(plainTools.get('get_product')!.description).toBe(
        tools.get('get_product')!.description,
      );
    });

    it("describes each route tool with its method's docblock: summary, then description", () => {
      expect(tools.get('catalog_get')!.description).toBe(
        'Get one product by its id (a UUID, as returned by search_products), as the REST API ' +
          'serves it at GET /products/:id.\n\n' +
          'Returns its SKU, name, description, category, price in EUR, units in stock and tags. ' +
          'Fails with Not Found when no product has that id.',
      );
      expect(tools.get('catalog_update')!.description).toMatch(
        /^Change some fields of a product: .*\n\nNeeds the admin role \(catalog\.write scope\)\./s,
      );
      expect(tools.get('catalog_update')!.description).not.toContain('@param');
      expect(tools.get('catalog_delete')!.description).toContain('This cannot be undone');
    });

    it('describes the route parameter with its @param tag and the body fields with their docblocks', () => {
      const { properties } = tools.get('catalog_update')!.inputSchema;
      expect(properties.id.description).toBe(
        'The id of the product to change (a UUID, as returned by search_products).',
      );
      expect(properties.price.description).toBe('The new unit price in EUR, VAT included.');
      expect(properties.tags.description).toBe(
        'The tags that replace the current ones (send `[]` to remove them all).',
      );
    });

    it('keeps the explicit descriptions of the service tools, and lists the docblocks in the manifest', async () => {
      expect(tools.get('get_product')!.description).toMatch(/^Get one product by its id \(a UUID/);
      const answer = await admin.readResource(MANIFEST).assertOk();
      const manifest = JSON.parse(answer.result!.contents[0].text);
      const update = manifest.tools.find(
        (tool: { name: string }) => tool.name === 'catalog_update',
      );
      expect(update).toEqual({
        name: 'catalog_update',
        title: 'Update a product',
        description: tools.get('catalog_update')!.description,
        annotations: { readOnlyHint: false },
        scopes: ['catalog.write'],
      });
    });

    it('still calls the route tools', async () => {
      const product = await admin.callTool('create_product', newProduct()).assertOk();
      const { id } = product.result!.structuredContent;
      await admin
        .callTool('catalog_update', { id, stock: 2 })
        .assertOk()
        .assertStructured({ stock: 2 });
      await admin.callTool('catalog_delete', { id }).assertOk();
    });
  },
);

/** Every file of sample/, compiled alone, with the plugin's transformer or without. */
function compileSample(outDir: string, plugin: boolean): void {
  const sampleDir = join(ROOT, 'sample');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.sample.json'),
    undefined,
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  // A file compiled alone cannot see package.json's "type": "module"; say ESM outright.
  const compilerOptions = {
    ...config.options,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    isolatedModules: true,
    sourceMap: false,
  };
  // Not the declarations (sample/views/app-tools.d.ts): they compile to nothing.
  const files = readdirSync(sampleDir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'),
  );
  for (const file of files) {
    const source = join(sampleDir, file);
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions,
      fileName: source,
      transformers: { before: plugin ? [before()] : [] },
    });
    const target = join(outDir, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  // The translation files, which scripts/build-sample.mjs copies beside the compiled files too.
  for (const file of readdirSync(sampleDir, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.yaml')) cpSync(join(sampleDir, file), join(outDir, file));
  }
}
