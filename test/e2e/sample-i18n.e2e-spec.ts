/**
 * The sample in German (issue 13, item 7 and "Done when"): sample/i18n/mcp.de.yaml beside the
 * English of the code, and the override of the server "catalog" (sample/i18n/catalog/), as a
 * client sending `Accept-Language` sees them over real HTTP, on both protocol eras.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { eraRequest, MODERN_VERSION, type EraAnswer } from '../support/mcp-post.js';
import { REPO_ROOT } from '../support/readme-blocks.js';

type Texts = Record<string, any>;
const readTexts = (file: string): Texts =>
  parse(readFileSync(join(REPO_ROOT, 'sample/i18n', file), 'utf8')) as Texts;
/** The German of every server, and the German of the server "catalog" alone. */
const BASE = readTexts('mcp.de.yaml');
const GROUP = readTexts('catalog/mcp.de.yaml');

/** The German a field should have: the group's where it has one, else the base file's. */
const german = (name: string, field: 'title' | 'description'): string | undefined =>
  GROUP[name]?.[field] ?? BASE[name]?.[field];
const germanArgument = (name: string, argument: string): string | undefined =>
  GROUP[name]?.arguments?.[argument]?.description ?? BASE[name]?.arguments?.[argument]?.description;

const ERAS = [MODERN_VERSION, '2025-11-25'] as const;
type Era = (typeof ERAS)[number];
const ADMIN = `Bearer ${SAMPLE_DEFAULTS.adminToken}`;
const READER = `Bearer ${SAMPLE_DEFAULTS.readerToken}`;

type Answer = EraAnswer;

/** One request of `era`, as the admin unless `authorization` says otherwise. */
async function ask(
  app: INestApplication,
  era: Era,
  method: string,
  { params = {}, language, authorization = ADMIN }: AskOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: authorization };
  if (language !== undefined) headers['Accept-Language'] = language;
  // A 2026 client names the resource it reads in a header, as it names a tool or a prompt.
  if (era === MODERN_VERSION && typeof params.uri === 'string') headers['Mcp-Name'] = params.uri;
  const answer = await eraRequest(app, era, method, params, headers);
  expect(answer.status).toBe(200);
  return answer;
}

interface AskOptions {
  params?: Record<string, unknown>;
  /** The `Accept-Language` header; none when left out. */
  language?: string;
  authorization?: string;
}

/** The server's instructions: from `server/discover` (2026) or `initialize` (2025). */
async function instructionsOf(app: INestApplication, era: Era, language?: string) {
  const answer =
    era === MODERN_VERSION
      ? await ask(app, era, 'server/discover', { language })
      : await ask(app, era, 'initialize', {
          language,
          params: {
            protocolVersion: era,
            capabilities: {},
            clientInfo: { name: 'e2e', version: '1' },
          },
        });
  return answer.message.result.instructions as string;
}

/** A value without its `title` and `description` texts. */
const withoutTexts = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, inner) =>
      key === 'title' || key === 'description' ? undefined : inner,
    ),
  );

const textOf = (result: Record<string, any>): string =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/** Says which language it was answered in, on every MCP response. */
function expectLanguage(answer: Answer, locale: string): void {
  expect(answer.headers['content-language']).toBe(locale);
  expect(answer.headers.vary).toMatch(/(^|,\s*)accept-language(\s*,|$)/i);
}

describe.each(ADAPTERS)('the sample in German on %s', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startApp(AppModule, { adapter });
    app = running.app;
  });

  afterAll(() => running?.close());

  describe.each(ERAS)('on protocol %s', (era) => {
    /** What the code says: the list without Accept-Language. */
    let english: Array<Record<string, any>>;

    beforeAll(async () => {
      english = (await ask(app, era, 'tools/list')).message.result.tools;
    });

    /** The English of an argument that has no German: what the code says, or none. */
    const englishArgument = (name: string, argument: string): string | undefined =>
      english.find((tool) => tool.name === name)?.inputSchema.properties[argument]?.description;

    it('lists every tool with German titles, descriptions and argument descriptions to Accept-Language: de', async () => {
      const answer = await ask(app, era, 'tools/list', { language: 'de' });
      expectLanguage(answer, 'de');
      const { tools } = answer.message.result;
      expect(tools.map((tool: { name: string }) => tool.name)).toEqual(
        english.map((tool) => tool.name),
      );
      for (const tool of tools) {
        // Complete: every tool the admin sees has its German title and description.
        expect(BASE[tool.name], tool.name).toBeDefined();
        expect(tool.title).toBe(german(tool.name, 'title'));
        expect(tool.description).toBe(german(tool.name, 'description'));
        for (const [argument, schema] of Object.entries<any>(tool.inputSchema.properties ?? {})) {
          expect(schema.description, `${tool.name}.${argument}`).toBe(
            germanArgument(tool.name, argument) ?? englishArgument(tool.name, argument),
          );
        }
      }
      const search = tools.find((tool: { name: string }) => tool.name === 'search_products');
      expect(search.title).toBe('Produkte suchen');
      expect(search.inputSchema.properties.query.description).toBe(
        'Wörter, die im Namen, in der Beschreibung, in der SKU und in den Tags gesucht werden; ' +
          'jedes Wort muss vorkommen.',
      );
      // Only the texts change: the schemas, hints and names are the code's.
      expect(withoutTexts(tools)).toEqual(withoutTexts(english));
    });

    it('lists the prompt, the resources and the template in German, and instructs in German', async () => {
      const prompts = await ask(app, era, 'prompts/list', { language: 'de' });
      expectLanguage(prompts, 'de');
      expect(prompts.message.result.prompts).toEqual([
        expect.objectContaining({
          name: 'restock_plan',
          title: 'Nachbestellplan',
          description: BASE.restock_plan.description,
          arguments: [
            expect.objectContaining({
              name: 'category',
              description: BASE.restock_plan.arguments.category.description,
            }),
            expect.objectContaining({
              name: 'weeks',
              description: BASE.restock_plan.arguments.weeks.description,
            }),
          ],
        }),
      ]);

      const resources = await ask(app, era, 'resources/list', { language: 'de' });
      expectLanguage(resources, 'de');
      for (const resource of resources.message.result.resources) {
        expect(resource).toMatchObject({
          title: BASE[resource.uri].title,
          description: BASE[resource.uri].description,
        });
      }
      const templates = await ask(app, era, 'resources/templates/list', { language: 'de' });
      expectLanguage(templates, 'de');
      expect(templates.message.result.resourceTemplates).toEqual([
        expect.objectContaining({
          uriTemplate: 'catalog://products/{id}',
          title: 'Ein Produkt',
          description: BASE['catalog://products/{id}'].description,
        }),
      ]);

      expect(await instructionsOf(app, era, 'de')).toBe(BASE._server.instructions);
      expect(await instructionsOf(app, era)).toMatch(/^Tools for the product catalog/);
    });

    it('takes the group override of the server "catalog" first, field by field', async () => {
      const { tools } = (await ask(app, era, 'tools/list', { language: 'de' })).message.result;
      const search = tools.find((tool: { name: string }) => tool.name === 'search_products');
      // The group's text wins over the base file's...
      expect(search.description).toBe(GROUP.search_products.description);
      expect(search.description).not.toBe(BASE.search_products.description);
      expect(search.description).toMatch(/^Der Einstieg in den Katalog/);
      // ...and what the group leaves out comes from the base file, then from the code.
      expect(search.title).toBe(BASE.search_products.title);
      expect(search.inputSchema.properties.minPrice.description).toBe(
        BASE.search_products.arguments.minPrice.description,
      );
      const create = tools.find((tool: { name: string }) => tool.name === 'create_product');
      expect(create.inputSchema.properties.sku.description).toBe(
        englishArgument('create_product', 'sku'),
      );
    });

    it('answers "de-AT;q=0.9, en;q=0.8" in German: the region falls back to its language', async () => {
      const answer = await ask(app, era, 'tools/list', { language: 'de-AT;q=0.9, en;q=0.8' });
      expectLanguage(answer, 'de');
      expect(answer.message.result.tools.map((tool: { title: string }) => tool.title)).toContain(
        'Produkte suchen',
      );
    });

    it.each([
      { language: 'fr', what: 'a language it has no translations for' },
      { language: 'en;q=0.5, de;q=0.4', what: 'English first' },
      { language: undefined, what: 'no Accept-Language' },
    ])('answers $what in English, the texts of the code', async ({ language }) => {
      const answer = await ask(app, era, 'tools/list', { language });
      expectLanguage(answer, 'en');
      expect(answer.message.result.tools).toEqual(english);
      const search = english.find((tool) => tool.name === 'search_products')!;
      expect(search.title).toBe('Search products');
      expect(search.description).toMatch(/^Search the product catalog\./);
    });

    it('answers 100 concurrent lists alternating de and en, each in its own language', async () => {
      const languages = Array.from({ length: 100 }, (_, index) => (index % 2 ? 'en' : 'de'));
      const answers = await Promise.all(
        languages.map((language) => ask(app, era, 'tools/list', { language })),
      );
      answers.forEach((answer, index) => {
        const language = languages[index];
        expect(answer.headers['content-language']).toBe(language);
        const titles = answer.message.result.tools.map((tool: { title: string }) => tool.title);
        expect(titles).toContain(language === 'de' ? 'Produkte suchen' : 'Search products');
        expect(titles).not.toContain(language === 'de' ? 'Search products' : 'Produkte suchen');
      });
    });

    it('answers an invalid argument in German, and keeps a message the DTO wrote itself', async () => {
      const call = (language?: string) =>
        ask(app, era, 'tools/call', {
          language,
          params: { name: 'search_products', arguments: { query: '', limit: 500 } },
        });
      const answer = await call('de');
      expectLanguage(answer, 'de');
      expect(answer.message.result.isError).toBe(true);
      expect(textOf(answer.message.result)).toBe(
        'Ungültige Argumente:\n' +
          '- /query: query muss zwischen 1 und 100 Zeichen lang sein\n' +
          '- /limit: limit darf nicht größer als 50 sein',
      );
      const inEnglish = await call();
      expect(textOf(inEnglish.message.result)).toBe(
        'Invalid arguments:\n' +
          '- /query: query must be longer than or equal to 1 characters\n' +
          '- /limit: limit must not be greater than 50',
      );

      const created = await ask(app, era, 'tools/call', {
        language: 'de',
        params: {
          name: 'create_product',
          arguments: {
            sku: 'kit',
            name: 'K',
            description: 'Ein Wasserkocher',
            category: 'kitchen',
            price: 0,
            stock: 1,
          },
        },
      });
      expect(textOf(created.message.result)).toBe(
        'Ungültige Argumente:\n' +
          '- /sku: sku must be three capital letters, a dash and four digits, like KIT-4001\n' +
          '- /name: name muss zwischen 2 und 120 Zeichen lang sein\n' +
          '- /price: price darf nicht kleiner als 0.01 sein',
      );
    });

    it("words the library's refusals in German: a missing scope, an unknown tool, a missing resource", async () => {
      const refused = await ask(app, era, 'tools/call', {
        language: 'de',
        authorization: READER,
        params: {
          name: 'create_product',
          arguments: {
            sku: 'KIT-9999',
            name: 'Kessel',
            description: 'Ein Wasserkocher',
            category: 'kitchen',
            price: 20,
            stock: 1,
          },
        },
      });
      expectLanguage(refused, 'de');
      expect(refused.message.result.isError).toBe(true);
      expect(textOf(refused.message.result)).toContain(
        'Fehlende Scopes: catalog.write; der Aufrufer hat catalog.read.',
      );

      const unknown = await ask(app, era, 'tools/call', {
        language: 'de',
        params: { name: 'nope', arguments: {} },
      });
      expectLanguage(unknown, 'de');
      expect(JSON.stringify(unknown.message)).toContain(
        'Unbekanntes Tool \\"nope\\". Mit tools/list die Tools abrufen, die dieser Server anbietet.',
      );

      const missing = await ask(app, era, 'resources/read', {
        language: 'de',
        params: { uri: 'catalog://products/00000000-0000-4000-8000-000000000000' },
      });
      expectLanguage(missing, 'de');
      expect(missing.message.error.message).toContain(
        'Ressource nicht gefunden: catalog://products/00000000-0000-4000-8000-000000000000.',
      );
    });
  });
});
