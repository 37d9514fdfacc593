import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type ts from 'typescript';
import { before as swaggerBefore } from '@nestjs/swagger/plugin';
import { before, factory } from 'nestjs-mcp/plugin';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readMethodDocblock,
  readParameterDescription,
} from '../../lib/discovery/docblock-metadata.reader.js';
import { captureLogs } from '../support/captured-logs.js';
import {
  buildFixtures,
  importFixture,
  outputDir,
  removeOutput,
  transpileFixtures,
} from './fixture-compiler.js';

// Apps without a description for some tools warn about it; the warnings are expected here.
const logs = captureLogs();

type Listings = Awaited<ReturnType<typeof listings>>;

/** What the app compiled from the fixtures lists, asked by a real MCP client over HTTP. */
async function listings(fixture: Record<string, any>) {
  const moduleRef = await Test.createTestingModule({ imports: [fixture.DocblockAppModule] })
    .setLogger(logs)
    .compile();
  const app: INestApplication = await moduleRef.createNestApplication({ logger: logs }).init();
  const mcp = await McpTestClient.connect(app);
  try {
    return {
      tools: (await mcp.listTools().assertOk()).result!.tools,
      prompts: (await mcp.listPrompts().assertOk()).result!.prompts,
      resources: (await mcp.listResources().assertOk()).result!.resources,
    };
  } finally {
    await mcp.close();
    await app.close();
  }
}

/** The descriptions that come from docblocks in the fixtures, by where they are listed. */
const DOCBLOCK_DESCRIPTIONS = {
  tool: {
    search_products:
      'Searches the catalog.\n\nMatches words in names and descriptions, one page at a time:\n' +
      '- `limit` sets the page size',
    todays_sales: 'The sales of today, in cents.',
  },
  property: {
    limit: 'How many products one page holds.',
    query: 'Words to look for in the name and the description of a product.',
  },
  prompt: 'Writes a product description for a shop page.',
  promptArgument: 'The SKU of the product to write about.',
  resource: 'The categories of the catalog, as a JSON list.',
};

/** The import lines of a compiled file. */
const importsOf = (dir: string, file: string): string[] =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => /^\s*import\b|\brequire\(/.test(line));

/** A listing with every docblock description taken out: what a build without the plugin has. */
function withoutDocblocks(listed: Listings): Listings {
  const copy: Listings = structuredClone(listed);
  for (const tool of copy.tools) {
    if (tool.name in DOCBLOCK_DESCRIPTIONS.tool) delete tool.description;
    for (const [name, property] of Object.entries<any>(tool.inputSchema.properties ?? {})) {
      if (name in DOCBLOCK_DESCRIPTIONS.property) delete property.description;
    }
  }
  for (const prompt of copy.prompts) {
    delete prompt.description;
    for (const argument of prompt.arguments ?? []) delete argument.description;
  }
  for (const resource of copy.resources) delete resource.description;
  return copy;
}

describe('nestjs-mcp/plugin as a before transformer of a program build', () => {
  let withPlugin: string;
  let withoutPlugin: string;
  let listed: Listings;
  let plain: Listings;
  let compiled: Record<string, any>;

  beforeAll(async () => {
    withPlugin = outputDir('with-plugin');
    withoutPlugin = outputDir('without-plugin');
    buildFixtures(withPlugin, (program) => before({}, program));
    buildFixtures(withoutPlugin);
    compiled = await importFixture(withPlugin);
    listed = await listings(compiled);
    plain = await listings(await importFixture(withoutPlugin));
  }, 60_000);

  afterAll(() => {
    removeOutput(withPlugin);
    removeOutput(withoutPlugin);
  });

  const tool = (name: string) => listed.tools.find((entry) => entry.name === name);

  it("describes a tool by its method's docblock: summary and description, lists kept", () => {
    expect(tool('search_products')?.description).toBe(DOCBLOCK_DESCRIPTIONS.tool.search_products);
  });

  it('describes every method of an @McpTools() class by its docblock', () => {
    expect(tool('todays_sales')?.description).toBe(DOCBLOCK_DESCRIPTIONS.tool.todays_sales);
  });

  it('describes DTO properties by their docblocks, inherited ones included, unwrapped', () => {
    const properties = tool('search_products')?.inputSchema.properties;
    expect(properties.limit.description).toBe(DOCBLOCK_DESCRIPTIONS.property.limit);
    expect(properties.query.description).toBe(DOCBLOCK_DESCRIPTIONS.property.query);
    expect(properties.cursor).toEqual({ type: 'string' });
  });

  it('lets the options, @ApiOperation() and @ApiProperty() win over a docblock', () => {
    expect(tool('count_products')?.description).toBe('Counts the products (from the option).');
    expect(tool('stock_level')).toMatchObject({
      title: 'Stock',
      description: 'The stock of the warehouse (@ApiOperation).',
    });
    const properties = tool('search_products')?.inputSchema.properties;
    expect(properties.category.description).toBe('The category slug, as in the URL.');
    expect(properties.sort.description).toBe('The sort order (from the option).');
  });

  it('leaves a method without a docblock undescribed', () => {
    expect(tool('undocumented')).not.toHaveProperty('description');
  });

  it('describes prompts, their arguments and resources by docblocks', () => {
    expect(listed.prompts).toEqual([
      {
        name: 'describe_product',
        description: DOCBLOCK_DESCRIPTIONS.prompt,
        arguments: [
          { name: 'sku', description: DOCBLOCK_DESCRIPTIONS.promptArgument, required: true },
        ],
      },
    ]);
    expect(listed.resources).toEqual([
      {
        uri: 'catalog://categories',
        name: 'categories',
        description: DOCBLOCK_DESCRIPTIONS.resource,
        mimeType: 'application/json',
      },
    ]);
  });

  it('records @param tags by parameter position, for route parameters', () => {
    const controller = compiled.DocblockProductsController;
    expect(readParameterDescription(controller, 'update', 0)).toBe(
      "The product's UUID, as in the URL.",
    );
    expect(readParameterDescription(controller, 'update', 1)).toBe('the fields to change');
    expect(readMethodDocblock(controller, 'update')).toEqual({
      description: 'Updates a product.',
      parameters: ["The product's UUID, as in the URL.", 'the fields to change'],
    });
  });

  it('records MCP methods and decorated properties only', () => {
    const metadata = compiled.DocblockCatalogService._MCP_DOCBLOCK_METADATA();
    expect(Object.keys(metadata.methods).toSorted()).toEqual([
      'categories',
      'countProducts',
      'describeProduct',
      'searchProducts',
      'stockLevel',
    ]);
    expect(metadata).not.toHaveProperty('properties');
  });

  it('adds no import to the compiled files', () => {
    for (const file of ['docblock-catalog.fixture.js', 'docblock-catalog.dto.js']) {
      expect(importsOf(withPlugin, file)).toEqual(importsOf(withoutPlugin, file));
    }
  });

  it('changes nothing but the docblock descriptions: without it the listing is as before', () => {
    expect(plain).toEqual(withoutDocblocks(listed));
    expect(plain.tools.find((entry) => entry.name === 'search_products')).not.toHaveProperty(
      'description',
    );
  });

  it('lists without the plugin exactly what the same sources list when vitest compiles them', async () => {
    const sources = await import('./fixtures/docblock-catalog.fixture.js');
    expect(await listings(sources)).toEqual(plain);
  });
});

describe('nestjs-mcp/plugin in a transpile-only build (ts-jest isolatedModules)', () => {
  let dir: string;

  beforeAll(() => {
    dir = outputDir('transpiled');
  });

  afterAll(() => removeOutput(dir));

  it("lists the same descriptions through ts-jest's factory() without a program", async () => {
    transpileFixtures(dir, factory({}));
    const built = outputDir('built');
    try {
      buildFixtures(built, (program) => before({}, program));
      const transpiled = await listings(await importFixture(dir));
      expect(transpiled.tools.find((entry) => entry.name === 'search_products')).toMatchObject({
        description: DOCBLOCK_DESCRIPTIONS.tool.search_products,
      });
      expect(transpiled).toEqual(await listings(await importFixture(built)));
    } finally {
      removeOutput(built);
    }
  }, 60_000);
});

describe("nestjs-mcp/plugin next to @nestjs/swagger's plugin", () => {
  const dirs: string[] = [];

  afterAll(() => dirs.forEach(removeOutput));

  it.each([
    [
      'after',
      (program: ts.Program) => [
        swaggerBefore({ introspectComments: true }, program),
        before({}, program),
      ],
    ],
    [
      'before',
      (program: ts.Program) => [
        before({}, program),
        swaggerBefore({ introspectComments: true }, program),
      ],
    ],
  ])(
    'lists the docblock descriptions when it runs %s it',
    async (_, transformers) => {
      const dir = outputDir('with-swagger');
      dirs.push(dir);
      buildFixtures(dir, transformers);
      const { tools, prompts } = await listings(await importFixture(dir));
      const search = tools.find((entry) => entry.name === 'search_products');
      expect(search?.description).toBe(DOCBLOCK_DESCRIPTIONS.tool.search_products);
      expect(search?.inputSchema.properties.query.description).toBe(
        DOCBLOCK_DESCRIPTIONS.property.query,
      );
      expect(prompts[0].arguments[0].description).toBe(DOCBLOCK_DESCRIPTIONS.promptArgument);
    },
    60_000,
  );
});
