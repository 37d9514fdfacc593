import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpI18nOptions } from '../interfaces/mcp-i18n-options.interface.js';
import type { McpTranslationSource } from '../interfaces/mcp-translation-source.interface.js';
import { translationProblemsMessage } from '../messages/localization.messages.js';
import {
  definitionView,
  localizePrompt,
  localizeResource,
  localizeTemplate,
  localizeTool,
  type DefinitionView,
} from './definition.localizer.js';
import { describeKey, DirectoryTranslationSource } from './directory-translation.source.js';
import { LocaleNegotiator } from './locale.negotiator.js';
import { ChainTexts, type LocalizedTexts } from './localized-texts.js';
import { TranslationChain } from './translation.chain.js';
import { translationTreeProblems, type PublishedEntries } from './translation-tree.check.js';

/** Everything one server answers in one locale, made at bootstrap. */
export interface LocaleEdition {
  readonly locale: string;
  readonly tools: DefinitionView<Tool>;
  readonly prompts: DefinitionView<Prompt>;
  readonly resources: DefinitionView<Resource>;
  readonly templates: DefinitionView<ResourceTemplateType>;
  readonly texts: LocalizedTexts;
  /** `_server.instructions` by the chain, else the `instructions` option. */
  readonly instructions: string | undefined;
}

/** What the translations of one server are checked against. */
export interface TranslationTarget {
  readonly name: string;
  /** The server's `group`; its name stands for it when it has none. */
  readonly group?: string;
  readonly instructions?: string;
  /** What this server publishes. */
  readonly published: PublishedEntries;
  /** What any server of the app publishes (a file shared by servers may name it). */
  readonly publishedInApp: PublishedEntries;
}

/**
 * The `i18n` option of one server, ready to serve: the translations read and checked,
 * the locales offered, an edition per locale (localized definitions, messages and
 * instructions), and the negotiation of a request's locale. Made once, at bootstrap;
 * without `i18n` there is none and nothing of this runs.
 */
export class McpLocalization {
  private readonly editions = new Map<string, LocaleEdition>();
  private readonly negotiator: LocaleNegotiator;

  private constructor(
    private readonly source: McpTranslationSource,
    chain: TranslationChain,
    negotiator: LocaleNegotiator,
    instructions: string | undefined,
  ) {
    this.negotiator = negotiator;
    for (const locale of negotiator.locales) {
      const instructionsIn = chain.instructions(locale) ?? instructions;
      this.editions.set(locale, {
        locale,
        tools: definitionView(localizeTool, chain, locale),
        prompts: definitionView(localizePrompt, chain, locale),
        resources: definitionView(localizeResource, chain, locale),
        templates: definitionView(localizeTemplate, chain, locale),
        texts: new ChainTexts(chain, locale),
        instructions: instructionsIn,
      });
    }
  }

  /**
   * Reads and checks the translations of a server.
   * @throws McpConfigurationError listing every problem with its file and line
   */
  static create(options: McpI18nOptions, server: TranslationTarget): McpLocalization {
    const source =
      typeof options.translations === 'string'
        ? new DirectoryTranslationSource(options.translations)
        : options.translations;
    const group = server.group ?? server.name;
    checkTranslations(source, group, server);
    const found = source.locales();
    const offered = options.locales ?? found;
    const negotiator = new LocaleNegotiator(options.defaultLocale, offered);
    const chain = new TranslationChain(source, group, options.defaultLocale, negotiator.locales);
    return new McpLocalization(source, chain, negotiator, server.instructions);
  }

  get defaultLocale(): string {
    return this.negotiator.defaultLocale;
  }

  /** The locales offered, the default first. */
  get locales(): readonly string[] {
    return this.negotiator.locales;
  }

  /**
   * The locale of an HTTP request: the translation source's own resolvers when it has
   * them and they decide, else `Accept-Language`.
   */
  localeOfRequest(
    request: unknown,
    acceptLanguage: string | readonly string[] | undefined,
  ): string {
    const resolved = this.source.localeOf?.(request);
    return this.negotiator.negotiate(resolved ?? acceptLanguage);
  }

  /** The offered locale for a language tag (`de-AT` → `de`), the default for none. */
  pick(tag: string | undefined): string {
    return this.negotiator.negotiate(tag);
  }

  /** What the server answers in a locale (one it offers; the default's for any other). */
  edition(locale: string | undefined): LocaleEdition {
    return (
      (locale !== undefined && this.editions.get(locale)) ||
      this.editions.get(this.negotiator.defaultLocale)!
    );
  }
}

function checkTranslations(
  source: McpTranslationSource,
  group: string,
  server: TranslationTarget,
): void {
  // Servers share the base files, and the servers of one group (its versions) its files:
  // a key may name what any server of the app publishes.
  const published = new Map([...server.publishedInApp, ...server.published]);
  const problems: string[] = [];
  for (const locale of source.locales()) {
    for (const scope of [undefined, group]) {
      const tree = source.load(locale, scope);
      if (!tree) continue;
      for (const problem of translationTreeProblems(tree, published)) {
        problems.push(`${describeKey(source, locale, scope, problem.path)}: ${problem.message}`);
      }
    }
  }
  if (problems.length === 0) return;
  throw new McpConfigurationError(translationProblemsMessage(server.name, problems));
}
