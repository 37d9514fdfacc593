import type { McpTranslationSource } from './mcp-translation-source.interface.js';

/**
 * Titles, descriptions, instructions and messages in the language the client asks for
 * (`Accept-Language` over HTTP, the `locale` option or the environment over stdio), from
 * YAML translation files (docs/i18n.md).
 */
export interface McpI18nOptions {
  /** The language used when the client asks for none that has translations, such as `'en'`. */
  defaultLocale: string;
  /**
   * The languages offered.
   * @default every locale that has a translation file, and `defaultLocale`
   */
  locales?: string[];
  /**
   * The directory of the translation files: `mcp.<locale>.yaml` for every server, and
   * `<group>/mcp.<locale>.yaml` for the servers of one group (the server's `group`, or its
   * name when it has none). Or another source of translations, such as nestjs-i18n's
   * (`nestI18nTranslations()` from `nestjs-mcp/i18n`).
   */
  translations: string | McpTranslationSource;
}
