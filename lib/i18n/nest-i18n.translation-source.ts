import type { I18nService } from 'nestjs-i18n';
import type { LocatedTranslationSource } from '../localization/directory-translation.source.js';
import type {
  McpTranslationSource,
  McpTranslationTree,
} from '../interfaces/mcp-translation-source.interface.js';

/** Options of {@link nestI18nTranslations}. */
export interface NestI18nTranslationsOptions {
  /**
   * The nestjs-i18n namespace (the translation file's name) that holds the MCP texts:
   * `<lang>/mcp.json` for every server, `<lang>/mcp-<group>.json` for one server group.
   * @default 'mcp'
   */
  namespace?: string;
}

/**
 * Where nestjs-i18n leaves the language its resolvers chose: on the request its
 * middleware saw (Express's `req`, Fastify's raw Node request) and on the request its
 * interceptor saw (Fastify's own request object).
 */
interface I18nResolvedRequest {
  i18nLang?: unknown;
  raw?: { i18nLang?: unknown };
}

const isTree = (value: unknown): value is McpTranslationTree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `de-AT-x` → `de-AT` → `de`, as nestjs-i18n falls back (it strips `-` and `_` parts). */
const parentOf = (lang: string): string | undefined => {
  const cut = Math.max(lang.lastIndexOf('-'), lang.lastIndexOf('_'));
  return cut > 0 ? lang.slice(0, cut) : undefined;
};

/**
 * The app's nestjs-i18n translations and language resolvers as the MCP texts' source
 * (docs/i18n.md, "nestjs-i18n"):
 *
 * - `locales()`: the languages nestjs-i18n supports that have MCP texts (a namespace
 *   `mcp` or `mcp-<group>`), so that a language with none is not announced in
 *   `Content-Language` over texts in another.
 * - `load(locale)`: the `mcp` namespace of that language (`<lang>/mcp.json`), and
 *   `load(locale, group)` the `mcp-<group>` namespace (`<lang>/mcp-<group>.json`), in the
 *   shape of the YAML files. Read from `I18nService.getTranslations()` when the MCP server
 *   prepares its texts, at bootstrap.
 * - `localeOf(request)`: the language nestjs-i18n's resolvers chose for the request (its
 *   middleware and interceptor run for the MCP endpoint like for any route), mapped onto
 *   the languages with MCP texts as nestjs-i18n falls back (its `fallbacks` option, then
 *   `de-AT` → `de`). A language without MCP texts is returned as chosen: it is outside
 *   `locales()`, so the server answers in its default locale, as nestjs-i18n falls back to
 *   its `fallbackLanguage`. (`undefined`, which would negotiate from `Accept-Language`
 *   instead, only when nestjs-i18n chose nothing: a `?lang=en` must win over the header.)
 *
 * Only nestjs-i18n's types are imported: this entry point loads no code of nestjs-i18n.
 * @publicApi
 */
export function nestI18nTranslations(
  i18n: I18nService,
  options: NestI18nTranslationsOptions = {},
): McpTranslationSource {
  const namespace = checkedNamespace(options.namespace ?? 'mcp');
  const groupPrefix = `${namespace}-`;
  const namespaceOf = (group: string | undefined) =>
    group === undefined ? namespace : `${groupPrefix}${group}`;
  const textsOf = (locale: string): Record<string, unknown> | undefined => {
    const texts = (i18n.getTranslations() as Record<string, unknown> | undefined)?.[locale];
    return isTree(texts) ? texts : undefined;
  };
  const hasMcpTexts = (locale: string): boolean =>
    Object.keys(textsOf(locale) ?? {}).some(
      (key) => key === namespace || key.startsWith(groupPrefix),
    );
  const locales = (): string[] => (i18n.getSupportedLanguages() ?? []).filter(hasMcpTexts);

  const fit = remembered((chosen: string): string => {
    const offered = locales();
    for (let lang: string | undefined = i18n.resolveLanguage(chosen); lang;) {
      if (offered.includes(lang)) return lang;
      lang = parentOf(lang);
    }
    return chosen;
  });

  const source: LocatedTranslationSource = {
    locales,

    load(locale, group) {
      const key = namespaceOf(group);
      const tree = textsOf(locale)?.[key];
      if (tree === undefined) return undefined;
      if (!isTree(tree)) {
        // A string here is a key of the app's own texts named like the MCP namespace.
        throw new Error(
          `nestjs-i18n's translations for "${locale}" have "${key}" as ${JSON.stringify(tree)}, ` +
            `not an object of published names: the MCP texts of this namespace go in ` +
            `<lang>/${key}.json, such as { "search_products": { "title": "..." } }`,
        );
      }
      return tree;
    },

    localeOf(request) {
      const chosen = chosenLanguageOf(request);
      return chosen === undefined ? undefined : fit(chosen);
    },

    // For the bootstrap checks: nestjs-i18n keeps no lines, but the file is known by its name.
    whereIs(locale, group, path) {
      return `${locale}/${namespaceOf(group)}.json of nestjs-i18n, at ${path.join('.')}`;
    },
  };
  return source;
}

/** The namespace option, once it is known to name a translation file. */
function checkedNamespace(namespace: unknown): string {
  if (typeof namespace !== 'string' || !/^[^.\s]+$/.test(namespace)) {
    throw new Error(
      `nestI18nTranslations(): "namespace" must be the name of a translation file without ` +
        `its extension, such as 'mcp' for <lang>/mcp.json (got ${JSON.stringify(namespace)})`,
    );
  }
  return namespace;
}

/** The language nestjs-i18n's resolvers chose for a request, if they chose one. */
function chosenLanguageOf(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const { i18nLang, raw } = request as I18nResolvedRequest;
  // The interceptor's choice (Fastify's request, which has the query) before the
  // middleware's (its raw request).
  const chosen = typeof i18nLang === 'string' ? i18nLang : raw?.i18nLang;
  return typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
}

/**
 * `fit`, with its answer per chosen language kept: localeOf() runs on every MCP request, and
 * the server keeps its texts from bootstrap on. Bounded, since a query resolver passes what
 * the client sends.
 */
function remembered(fit: (chosen: string) => string): (chosen: string) => string {
  const fitted = new Map<string, string>();
  return (chosen) => {
    let locale = fitted.get(chosen);
    if (locale === undefined) {
      locale = fit(chosen);
      if (fitted.size >= 512) fitted.clear();
      fitted.set(chosen, locale);
    }
    return locale;
  };
}
