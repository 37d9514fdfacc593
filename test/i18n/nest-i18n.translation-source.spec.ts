import { Controller, Get, Inject, Module, Req } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AcceptLanguageResolver, I18nModule, I18nService, QueryResolver } from 'nestjs-i18n';
import { nestI18nTranslations } from 'nestjs-mcp/i18n';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';

const TRANSLATIONS = fileURLToPath(new URL('../fixtures/nestjs-i18n/', import.meta.url));
const json = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/nestjs-i18n/${file}`, import.meta.url), 'utf8'));

const i18nModule = () =>
  I18nModule.forRoot({
    fallbackLanguage: 'en',
    // Swiss German is served the German texts, as nestjs-i18n's `fallbacks` say.
    fallbacks: { gsw: 'de' },
    loaderOptions: { path: TRANSLATIONS },
    resolvers: [new QueryResolver(['lang']), AcceptLanguageResolver],
    logging: false,
  });

type McpTranslationSource = ReturnType<typeof nestI18nTranslations>;

const SOURCE = Symbol('source');

/** Answers the locale the source reads from the request nestjs-i18n resolved. */
@Controller('locale')
class LocaleController {
  constructor(@Inject(SOURCE) private readonly source: McpTranslationSource) {}

  @Get()
  locale(@Req() request: object): { locale: string | null } {
    return { locale: this.source.localeOf?.(request) ?? null };
  }
}

@Module({
  imports: [i18nModule()],
  controllers: [LocaleController],
  providers: [
    {
      provide: SOURCE,
      inject: [I18nService],
      useFactory: (i18n: I18nService) => nestI18nTranslations(i18n),
    },
  ],
})
class LocaleAppModule {}

describe('nestI18nTranslations(): the texts', () => {
  let i18n: I18nService;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [i18nModule()] }).compile();
    await moduleRef.init();
    i18n = moduleRef.get(I18nService);
  });

  it('offers the languages that have MCP texts, not every language of the app', () => {
    expect(i18n.getSupportedLanguages().toSorted()).toEqual(['de', 'en', 'fr']);
    // en and fr have only the app's own texts (common.json).
    expect(nestI18nTranslations(i18n).locales()).toEqual(['de']);
  });

  it('loads the mcp namespace of a language, as the file has it', () => {
    const source = nestI18nTranslations(i18n);
    expect(source.load('de')).toEqual(json('de/mcp.json'));
    expect(source.load('de')).toMatchObject({
      search_products: { title: 'Produkte suchen' },
      _server: { instructions: 'Werkzeuge zum Durchsuchen des Katalogs.' },
      _messages: { isNotEmpty: '$property darf nicht leer sein' },
    });
  });

  it("loads a group's texts from the mcp-<group> namespace", () => {
    const source = nestI18nTranslations(i18n);
    expect(source.load('de', 'shop')).toEqual({ get_product: { title: 'Artikel anzeigen' } });
    expect(source.load('de', 'billing')).toBeUndefined();
  });

  it('has nothing for a language without MCP texts, or one nestjs-i18n does not know', () => {
    const source = nestI18nTranslations(i18n);
    expect(source.load('en')).toBeUndefined();
    expect(source.load('fr', 'shop')).toBeUndefined();
    expect(source.load('es')).toBeUndefined();
  });

  it('reads another namespace when told', () => {
    const source = nestI18nTranslations(i18n, { namespace: 'assistant' });
    expect(source.locales()).toEqual(['de']);
    expect(source.load('de')).toEqual(json('de/assistant.json'));
  });

  it('refuses a namespace that cannot be a file name, saying what it must be', () => {
    expect(() => nestI18nTranslations(i18n, { namespace: 'mcp.texts' })).toThrow(
      `nestI18nTranslations(): "namespace" must be the name of a translation file without its extension, such as 'mcp' for <lang>/mcp.json (got "mcp.texts")`,
    );
  });

  it('says so when the namespace holds a text instead of the MCP texts', () => {
    // A global file (at the root of the translations) sets a key in every language.
    const service = {
      getSupportedLanguages: () => ['de'],
      getTranslations: () => ({ de: { mcp: 'Modellkontextprotokoll' } }),
      resolveLanguage: (lang: string) => lang,
    } as unknown as I18nService;
    expect(() => nestI18nTranslations(service).load('de')).toThrow(
      `nestjs-i18n's translations for "de" have "mcp" as "Modellkontextprotokoll", not an object of published names: ` +
        `the MCP texts of this namespace go in <lang>/mcp.json, such as { "search_products": { "title": "..." } }`,
    );
  });

  it('finds no locale on what is not a request nestjs-i18n resolved', () => {
    const source = nestI18nTranslations(i18n);
    expect(source.localeOf?.(undefined)).toBeUndefined();
    expect(source.localeOf?.('de')).toBeUndefined();
    expect(source.localeOf?.({ headers: { 'accept-language': 'de' } })).toBeUndefined();
  });
});

describe.each(ADAPTERS)('nestI18nTranslations(): the language of a request, on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(LocaleAppModule, { adapter });
  });

  afterAll(() => running?.close());

  const localeOf = async (query: string, headers: Record<string, string> = {}) => {
    const url = new URL(`/locale${query}`, running.url);
    const response = await fetch(url, { headers });
    expect(response.status).toBe(200);
    return ((await response.json()) as { locale: string | null }).locale;
  };

  it.each([
    ['Accept-Language: de', '', { 'accept-language': 'de' }, 'de'],
    [
      'Accept-Language: de-AT (its resolver matches the language)',
      '',
      { 'accept-language': 'de-AT' },
      'de',
    ],
    ['?lang=de', '?lang=de', {}, 'de'],
    ['?lang=de-AT (a region of a language with texts)', '?lang=de-AT', {}, 'de'],
    ['?lang=gsw (nestjs-i18n fallbacks)', '?lang=gsw', {}, 'de'],
    [
      '?lang=de over Accept-Language: fr (the resolvers order)',
      '?lang=de',
      { 'accept-language': 'fr' },
      'de',
    ],
  ])('reads %s as the language with texts', async (_what, query, headers, expected) => {
    expect(await localeOf(query, headers)).toBe(expected);
  });

  it('keeps a language the resolvers chose that has no MCP texts, so the server uses its default', async () => {
    // Not `undefined`: the server would then negotiate Accept-Language and answer German.
    expect(await localeOf('?lang=en', { 'accept-language': 'de' })).toBe('en');
    expect(await localeOf('', { 'accept-language': 'fr' })).toBe('fr');
  });

  it("follows nestjs-i18n's matching, not the MCP negotiation's", async () => {
    // AcceptLanguageResolver takes an exact match (en) before a region's language (de-AT).
    expect(await localeOf('', { 'accept-language': 'de-AT, en;q=0.5' })).toBe('en');
  });

  it("gives nestjs-i18n's fallback language when no resolver matched", async () => {
    expect(await localeOf('')).toBe('en');
  });
});
