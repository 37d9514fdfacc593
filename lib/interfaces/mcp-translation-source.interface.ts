/**
 * The texts of one locale as a translation file holds them: keys are published names
 * (`search_products`, `restock_plan`, `catalog://categories`), `_server` and `_messages`
 * (docs/i18n.md).
 */
export type McpTranslationTree = Readonly<Record<string, unknown>>;

/**
 * Where translations come from when they are not a directory of YAML files: the
 * nestjs-i18n integration (`nestjs-mcp/i18n`) is one.
 * @publicApi
 */
export interface McpTranslationSource {
  /** The locales that have translations. */
  locales(): readonly string[];
  /**
   * The texts of `locale`: for every server (`group` undefined), or for the servers of one
   * group; `undefined` when there are none.
   */
  load(locale: string, group?: string): McpTranslationTree | undefined;
  /**
   * The locale of a request as the app's own resolvers decide it (nestjs-i18n's), or
   * `undefined` to negotiate it from `Accept-Language`.
   */
  localeOf?(request: unknown): string | undefined;
}
