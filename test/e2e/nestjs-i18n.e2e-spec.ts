import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsNotEmpty, IsString } from 'class-validator';
import { AcceptLanguageResolver, I18nModule, I18nService, QueryResolver } from 'nestjs-i18n';
import { McpModule, McpTool } from 'nestjs-mcp';
import { nestI18nTranslations } from 'nestjs-mcp/i18n';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { modernRequest } from '../support/mcp-post.js';

// de/mcp.json, de/mcp-shop.json (the group "shop": the server's name), and en/ and fr/
// with the app's own texts only.
const TRANSLATIONS = fileURLToPath(new URL('../fixtures/nestjs-i18n/', import.meta.url));

class SearchProductsDto {
  @IsString()
  @IsNotEmpty()
  query!: string;
}

class GetProductDto {
  @IsString()
  sku!: string;
}

@Injectable()
class ShopTools {
  @McpTool({ title: 'Search products', description: 'Search products by name.' })
  searchProducts({ query }: SearchProductsDto) {
    return { found: [`${query} (sample)`] };
  }

  @McpTool({ title: 'Show product', description: 'Get one product with its price.' })
  getProduct({ sku }: GetProductDto) {
    return { sku, price: 10 };
  }
}

const i18nModule = () =>
  I18nModule.forRoot({
    fallbackLanguage: 'en',
    loaderOptions: { path: TRANSLATIONS },
    resolvers: [new QueryResolver(['lang']), AcceptLanguageResolver],
    logging: false,
  });

const mcpModule = (name: string) =>
  McpModule.forRootAsync({
    inject: [I18nService],
    useFactory: (i18n: I18nService) => ({
      name,
      version: '1.0.0',
      i18n: { defaultLocale: 'en', translations: nestI18nTranslations(i18n) },
    }),
  });

@Module({
  imports: [
    // The setup docs/i18n.md shows.
    I18nModule.forRoot({
      fallbackLanguage: 'en',
      loaderOptions: { path: TRANSLATIONS },
      resolvers: [new QueryResolver(['lang']), AcceptLanguageResolver],
      logging: false,
    }),
    McpModule.forRootAsync({
      inject: [I18nService],
      useFactory: (i18n: I18nService) => ({
        name: 'shop',
        version: '1.0.0',
        i18n: { defaultLocale: 'en', translations: nestI18nTranslations(i18n) },
      }),
    }),
  ],
  providers: [ShopTools],
})
class ShopAppModule {}

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { properties: Record<string, { description?: string }> };
}

const GERMAN = {
  search_products: {
    title: 'Produkte suchen',
    description: 'Sucht Produkte nach ihrem Namen.',
    query: 'Der Name oder ein Teil davon.',
  },
  // The group's file gives the title; the base file the description.
  get_product: { title: 'Artikel anzeigen', description: 'Liefert ein Produkt mit seinem Preis.' },
};

const expectGerman = (tools: Record<string, ListedTool>) => {
  expect(tools.search_products).toMatchObject({
    title: GERMAN.search_products.title,
    description: GERMAN.search_products.description,
  });
  expect(tools.search_products!.inputSchema.properties.query!.description).toBe(
    GERMAN.search_products.query,
  );
  expect(tools.get_product).toMatchObject(GERMAN.get_product);
};

describe.each(ADAPTERS)('the texts of nestjs-i18n, on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(ShopAppModule, { adapter });
  });

  afterAll(() => running?.close());

  const listTools = async (query = '', headers: Record<string, string> = {}) => {
    const res = await modernRequest(running.app, `/mcp${query}`, 'tools/list', {}, headers);
    expect(res.status).toBe(200);
    const tools = res.body.result.tools as ListedTool[];
    return {
      tools: Object.fromEntries(tools.map((tool) => [tool.name, tool])),
      contentLanguage: res.headers['content-language'],
      vary: String(res.headers.vary ?? ''),
    };
  };

  it('lists the German texts for Accept-Language: de', async () => {
    const { tools, contentLanguage, vary } = await listTools('', { 'Accept-Language': 'de' });
    expectGerman(tools);
    expect(contentLanguage).toBe('de');
    expect(vary).toMatch(/accept-language/i);
  });

  it("lists the German texts for ?lang=de (nestjs-i18n's QueryResolver)", async () => {
    const { tools, contentLanguage } = await listTools('?lang=de');
    expectGerman(tools);
    expect(contentLanguage).toBe('de');
  });

  it("lets nestjs-i18n's resolvers decide: ?lang=en wins over Accept-Language: de", async () => {
    const { tools, contentLanguage } = await listTools('?lang=en', { 'Accept-Language': 'de' });
    expect(tools.search_products).toMatchObject({
      title: 'Search products',
      description: 'Search products by name.',
    });
    expect(contentLanguage).toBe('en');
  });

  it('lists what the code says for a language without MCP texts', async () => {
    const { tools, contentLanguage } = await listTools('', { 'Accept-Language': 'fr' });
    expect(tools.get_product).toMatchObject({
      title: 'Show product',
      description: 'Get one product with its price.',
    });
    expect(contentLanguage).toBe('en');
  });

  it('answers an invalid argument with the _messages of nestjs-i18n', async () => {
    const res = await modernRequest(
      running.app,
      '/mcp',
      'tools/call',
      { name: 'search_products', arguments: { query: '' } },
      { 'Accept-Language': 'de' },
    );
    expect(res.body.result.isError).toBe(true);
    expect(JSON.stringify(res.body.result.content)).toContain('query darf nicht leer sein');
  });
});

describe('translations of nestjs-i18n that name nothing published', () => {
  const logs = captureLogs();

  it('fail the bootstrap, naming the nestjs-i18n file and the key', async () => {
    // The same files, for a server that publishes none of their tools.
    @Injectable()
    class OtherTools {
      @McpTool({ description: 'List the orders.' })
      listOrders() {
        return [];
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [i18nModule(), mcpModule('orders')],
      providers: [OtherTools],
    })
      .setLogger(logs)
      .compile();
    const app = moduleRef.createNestApplication({ logger: logs });
    try {
      const error = await app.init().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toContain(
        'de/mcp.json of nestjs-i18n, at search_products: "search_products" names no tool, ' +
          'prompt, resource or resource template this server publishes.',
      );
    } finally {
      await app.close();
    }
  });
});
