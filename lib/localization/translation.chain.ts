import type {
  McpTranslationSource,
  McpTranslationTree,
} from '../interfaces/mcp-translation-source.interface.js';

type Mapping = Readonly<Record<string, unknown>>;

const mappingAt = (value: unknown, key: string): Mapping | undefined => {
  const inner = typeof value === 'object' && value !== null ? (value as Mapping)[key] : undefined;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner)
    ? (inner as Mapping)
    : undefined;
};

const textAt = (value: Mapping | undefined, key: string): string | undefined => {
  const text = value?.[key];
  return typeof text === 'string' ? text : undefined;
};

/**
 * The one place a translated text is looked up, keyed by (server group, locale, name,
 * field). Each field falls back on its own, as the UFO RPC bundle defines it: the group's
 * file in the client's language → the group's file in the default language → the base
 * file in the client's language → the base file in the default language; `undefined`
 * after that, where the caller falls back to what the code says (and a title to the name).
 */
export class TranslationChain {
  private readonly chains = new Map<string, readonly McpTranslationTree[]>();
  private readonly fallback: readonly McpTranslationTree[];

  constructor(
    source: McpTranslationSource,
    group: string,
    readonly defaultLocale: string,
    locales: readonly string[],
  ) {
    const chainOf = (locale: string) => {
      const trees = [
        source.load(locale, group),
        source.load(defaultLocale, group),
        source.load(locale),
        source.load(defaultLocale),
      ];
      return [...new Set(trees.filter((tree) => tree !== undefined))];
    };
    for (const locale of locales) this.chains.set(locale, chainOf(locale));
    this.fallback = this.chains.get(defaultLocale) ?? chainOf(defaultLocale);
  }

  /** The `title` or `description` of a published name. */
  field(locale: string, name: string, field: 'title' | 'description'): string | undefined {
    for (const tree of this.chainOf(locale)) {
      const text = textAt(mappingAt(tree, name), field);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** The description of one argument of a tool or prompt. */
  argument(locale: string, name: string, argument: string): string | undefined {
    for (const tree of this.chainOf(locale)) {
      const text = textAt(
        mappingAt(mappingAt(mappingAt(tree, name), 'arguments'), argument),
        'description',
      );
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** `_server.instructions`. */
  instructions(locale: string): string | undefined {
    for (const tree of this.chainOf(locale)) {
      const text = textAt(mappingAt(tree, '_server'), 'instructions');
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** A `_messages` entry: a class-validator constraint or a library message id. */
  message(locale: string, id: string): string | undefined {
    for (const tree of this.chainOf(locale)) {
      const text = textAt(mappingAt(tree, '_messages'), id);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  private chainOf(locale: string): readonly McpTranslationTree[] {
    return this.chains.get(locale) ?? this.fallback;
  }
}
