import { isOptionsObject } from './option-checks.js';

const LOCALE = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The problems of the `i18n` option's shape; the translation files themselves are read
 * and checked when the server starts.
 */
export function i18nOptionsProblems(i18n: unknown): string[] {
  if (i18n === undefined) return [];
  if (!isOptionsObject(i18n)) {
    return ["\"i18n\" must be an object such as { defaultLocale: 'en', translations: 'i18n' }"];
  }
  const problems: string[] = [];
  const { defaultLocale, locales, translations } = i18n;
  if (typeof defaultLocale !== 'string' || !LOCALE.test(defaultLocale)) {
    problems.push(
      `"i18n.defaultLocale" must be a language tag such as 'en' (got ${JSON.stringify(defaultLocale)})`,
    );
  }
  if (
    locales !== undefined &&
    !(
      Array.isArray(locales) &&
      locales.every((locale) => typeof locale === 'string' && LOCALE.test(locale))
    )
  ) {
    problems.push("\"i18n.locales\" must be an array of language tags such as ['en', 'de']");
  }
  const isSource =
    isOptionsObject(translations) &&
    typeof translations.locales === 'function' &&
    typeof translations.load === 'function';
  if (!isSource && (typeof translations !== 'string' || translations.length === 0)) {
    problems.push(
      '"i18n.translations" must be the directory of the translation files, such as \'i18n\', ' +
        'or a translation source such as nestI18nTranslations(i18n)',
    );
  }
  return problems;
}
