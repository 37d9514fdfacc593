/*
 * The `nestjs-mcp/i18n` entry point: the MCP texts from an app's nestjs-i18n translations
 * and resolvers. Nothing else in the library imports it or nestjs-i18n, so an app without
 * nestjs-i18n loads neither (test/package/optional-integrations.spec.ts).
 */

export {
  nestI18nTranslations,
  type NestI18nTranslationsOptions,
} from './nest-i18n.translation-source.js';
