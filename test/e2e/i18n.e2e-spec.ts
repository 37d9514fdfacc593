/**
 * Localization over real HTTP (issue 13): a small app with German and English translation
 * files (test/fixtures/i18n/), on Express and Fastify, on both protocol eras.
 */
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { I18nFixtureModule } from '../fixtures/i18n/i18n.fixture.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { eraRequest, MODERN_VERSION, type EraAnswer } from '../support/mcp-post.js';

const ERAS = [MODERN_VERSION, '2025-11-25'] as const;
type Era = (typeof ERAS)[number];

type Answer = EraAnswer;

function ask(
  app: INestApplication,
  era: Era,
  method: string,
  params: Record<string, unknown> = {},
  language?: string,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...extra };
  if (language !== undefined) headers['Accept-Language'] = language;
  return eraRequest(app, era, method, params, headers);
}

const toolsOf = async (app: INestApplication, era: Era, language?: string) => {
  const answer = await ask(app, era, 'tools/list', {}, language);
  const tools = answer.message.result.tools as Array<Record<string, any>>;
  return { answer, byName: Object.fromEntries(tools.map((tool) => [tool.name, tool])) };
};

function expectLanguage(answer: Answer, locale: string): void {
  expect(answer.headers['content-language']).toBe(locale);
  expect(answer.headers.vary).toMatch(/(^|,\s*)accept-language(\s*,|$)/i);
}

describe.each(ADAPTERS)('localization on %s', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startApp(I18nFixtureModule, { adapter });
    app = running.app;
  });

  afterAll(() => running?.close());

  describe.each(ERAS)('protocol %s', (era) => {
    it('lists German titles, descriptions and argument descriptions to Accept-Language: de', async () => {
      const { answer, byName } = await toolsOf(app, era, 'de');
      expectLanguage(answer, 'de');
      const search = byName.search_products!;
      // The group's file (shop/) wins over the base file; the base file fills the rest.
      expect(search.title).toBe('Produkte suchen');
      expect(search.description).toBe('Sucht Produkte nach Namen.');
      expect(search.inputSchema.properties.query.description).toBe('Die gesuchten Wörter.');
      expect(search.inputSchema.properties.limit.description).toBe('Höchstens so viele Produkte.');
      // No German description: the default language's file, and a title from the name.
      expect(byName.list_categories!.title).toBe('Kategorien auflisten');
      expect(byName.list_categories!.description).toBe('Lists every category of the shop.');
    });

    it('answers in the default language, saying so, without Accept-Language or for fr', async () => {
      for (const language of [undefined, 'fr']) {
        const { answer, byName } = await toolsOf(app, era, language);
        expectLanguage(answer, 'en');
        expect(byName.search_products!.title).toBe('Search products');
        expect(byName.search_products!.description).toBe('Finds products by name.');
        expect(byName.search_products!.inputSchema.properties.query.description).not.toBe(
          'Die gesuchten Wörter.',
        );
        expect(byName.list_categories!.description).toBe('Lists every category of the shop.');
      }
    });

    it('takes German for de-AT;q=0.9, en;q=0.8 and English for en;q=0.9, de;q=0.5', async () => {
      const german = await toolsOf(app, era, 'de-AT;q=0.9, en;q=0.8');
      expectLanguage(german.answer, 'de');
      expect(german.byName.search_products!.title).toBe('Produkte suchen');
      const english = await toolsOf(app, era, 'en;q=0.9, de;q=0.5');
      expectLanguage(english.answer, 'en');
      expect(english.byName.search_products!.title).toBe('Search products');
    });

    it('gives each of 100 concurrent lists alternating de and en its own language', async () => {
      const languages = Array.from({ length: 100 }, (_, index) => (index % 2 ? 'en' : 'de'));
      const answers = await Promise.all(languages.map((language) => toolsOf(app, era, language)));
      answers.forEach(({ answer, byName }, index) => {
        const language = languages[index]!;
        expectLanguage(answer, language);
        expect(byName.search_products!.title).toBe(
          language === 'de' ? 'Produkte suchen' : 'Search products',
        );
      });
    });

    it('lists prompts, resources and templates in German, and prompts/get with its description', async () => {
      const prompts = await ask(app, era, 'prompts/list', {}, 'de');
      expectLanguage(prompts, 'de');
      const [plan] = prompts.message.result.prompts;
      expect(plan.description).toBe('Plant eine Nachbestellung.');
      expect(plan.arguments[0].description).toBe('Das nachzubestellende Produkt.');
      const resources = await ask(app, era, 'resources/list', {}, 'de');
      const categories = resources.message.result.resources.find(
        (resource: { uri: string }) => resource.uri === 'catalog://categories',
      );
      expect(categories).toMatchObject({ title: 'Kategorien', description: 'Alle Kategorien.' });
      const templates = await ask(app, era, 'resources/templates/list', {}, 'de');
      expect(templates.message.result.resourceTemplates[0]).toMatchObject({
        title: 'product',
        description: 'Ein Produkt.',
      });
      const got = await ask(
        app,
        era,
        'prompts/get',
        { name: 'restock_plan', arguments: { sku: 'A1' } },
        'de',
      );
      expectLanguage(got, 'de');
      expect(got.message.result.description).toBe('Plant eine Nachbestellung.');
    });

    it('answers an invalid call in German, field by field, and tells the tool the locale', async () => {
      const args = { query: 'x', limit: 99 };
      const call = await ask(
        app,
        era,
        'tools/call',
        { name: 'search_products', arguments: args },
        'de',
      );
      expectLanguage(call, 'de');
      const { result } = call.message;
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toBe(
        [
          'Ungültige Argumente:',
          '- /query: query muss mindestens 2 Zeichen lang sein (war "x")',
          '- /limit: limit darf höchstens 50 sein',
        ].join('\n'),
      );
      expect(result.structuredContent.issues).toEqual([
        expect.objectContaining({ path: '/query', constraint: 'minLength' }),
        expect.objectContaining({ path: '/limit', constraint: 'max' }),
      ]);
      const english = await ask(
        app,
        era,
        'tools/call',
        { name: 'search_products', arguments: args },
        'en',
      );
      expect(english.message.result.content[0].text).toMatch(
        /^Invalid arguments:\n- \/query: query must be longer than or equal to 2 characters/,
      );
      const ok = await ask(
        app,
        era,
        'tools/call',
        { name: 'search_products', arguments: { query: 'pan' } },
        'de-CH',
      );
      expect(
        ok.message.result.structuredContent ?? JSON.parse(ok.message.result.content[0].text),
      ).toEqual({
        query: 'pan',
        locale: 'de',
      });
    });

    it("words the library's own messages in German: missing scopes, an unknown tool", async () => {
      const refused = await ask(app, era, 'tools/call', { name: 'purge', arguments: {} }, 'de', {
        'x-scopes': 'read',
      });
      expect(refused.message.result.content[0].text).toBe(
        'Forbidden (403): Fehlende Berechtigung(en): admin; der Aufrufer hat read.',
      );
      const unknown = await ask(app, era, 'tools/call', { name: 'nope', arguments: {} }, 'de');
      expect(unknown.message.error.message).toBe(
        'Unbekanntes Werkzeug "nope". Rufe tools/list auf.',
      );
      const english = await ask(app, era, 'tools/call', { name: 'nope', arguments: {} }, 'en');
      expect(english.message.error.message).toBe(
        'Unknown tool "nope". Call tools/list to see the tools this server offers.',
      );
    });

    const instructionsIn = async (language?: string) => {
      const answer =
        era === MODERN_VERSION
          ? await ask(app, era, 'server/discover', {}, language)
          : await ask(
              app,
              era,
              'initialize',
              {
                protocolVersion: era,
                capabilities: {},
                clientInfo: { name: 'e2e', version: '1' },
              },
              language,
            );
      return answer.message.result.instructions as string;
    };

    it('gives the instructions in the language asked for', async () => {
      expect(await instructionsIn('de')).toBe('Nutze zuerst search_products.');
      expect(await instructionsIn('fr')).toBe('Use search_products first.');
    });
  });
});
