import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type {
  McpTranslationSource,
  McpTranslationTree,
} from '../../lib/interfaces/mcp-translation-source.interface.js';
import { McpLocalization } from '../../lib/localization/mcp-localization.js';
import { publishedEntries } from '../../lib/localization/translation-tree.check.js';

const TOOL: Tool = {
  name: 'search_products',
  title: 'Code title',
  description: 'Code description',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'Code query' } },
  },
};

/** A source whose trees are given per (group, locale): `group/de`, `de`. */
function source(trees: Record<string, McpTranslationTree>): McpTranslationSource {
  return {
    locales: () => [...new Set(Object.keys(trees).map((key) => key.split('/').at(-1)!))],
    load: (locale, group) => trees[group === undefined ? locale : `${group}/${locale}`],
  };
}

const texts = (level: string) => ({
  search_products: {
    title: `${level} title`,
    description: `${level} description`,
    arguments: { query: { description: `${level} query` } },
  },
  _server: { instructions: `${level} instructions` },
});

/** The tool and instructions in German with the given levels present. */
function german(trees: Record<string, McpTranslationTree>, tool: Tool = TOOL) {
  const localization = McpLocalization.create(
    { defaultLocale: 'en', locales: ['en', 'de'], translations: source(trees) },
    {
      name: 'shop',
      instructions: 'Code instructions',
      published: publishedEntries({ tools: [tool], prompts: [], resources: [], templates: [] }),
      publishedInApp: new Map(),
    },
  );
  const edition = localization.edition('de');
  const localized = edition.tools.localize(tool);
  return {
    title: localized.title,
    description: localized.description,
    query: (localized.inputSchema.properties as any).query.description,
    instructions: edition.instructions,
  };
}

const ALL = {
  'shop/de': texts('group+de'),
  'shop/en': texts('group+en'),
  de: texts('base+de'),
  en: texts('base+en'),
};

const everyField = (level: string) => ({
  title: `${level} title`,
  description: `${level} description`,
  query: `${level} query`,
  instructions: `${level} instructions`,
});

describe('the fallback chain of each field', () => {
  it('takes the group in the client language first', () => {
    expect(german(ALL)).toEqual(everyField('group+de'));
  });

  it('falls to the group in the default language', () => {
    const { 'shop/de': _, ...rest } = ALL;
    expect(german(rest)).toEqual(everyField('group+en'));
  });

  it('falls to the base file in the client language', () => {
    const { 'shop/de': _, 'shop/en': __, ...rest } = ALL;
    expect(german(rest)).toEqual(everyField('base+de'));
  });

  it('falls to the base file in the default language', () => {
    expect(german({ en: texts('base+en') })).toEqual(everyField('base+en'));
  });

  it('falls to what the code says', () => {
    expect(german({})).toEqual({
      title: 'Code title',
      description: 'Code description',
      query: 'Code query',
      instructions: 'Code instructions',
    });
  });

  it('falls to the name for a title the code does not give', () => {
    const { title: _, ...untitled } = TOOL;
    expect(german({}, untitled).title).toBe('search_products');
  });

  it('falls per field, not per entry', () => {
    const trees = {
      'shop/de': { search_products: { title: 'group+de title' } },
      de: { search_products: { arguments: { query: { description: 'base+de query' } } } },
      en: { search_products: { description: 'base+en description' } },
    };
    expect(german(trees)).toEqual({
      title: 'group+de title',
      description: 'base+en description',
      query: 'base+de query',
      instructions: 'Code instructions',
    });
  });

  it('keeps an input schema without translated arguments as it is', () => {
    const localization = McpLocalization.create(
      { defaultLocale: 'en', translations: source({ de: { search_products: { title: 'T' } } }) },
      {
        name: 'shop',
        published: publishedEntries({ tools: [TOOL], prompts: [], resources: [], templates: [] }),
        publishedInApp: new Map(),
      },
    );
    const edition = localization.edition('de');
    expect(edition.tools.localize(TOOL).inputSchema).toBe(TOOL.inputSchema);
    // Made once per definition and locale.
    expect(edition.tools.localize(TOOL)).toBe(edition.tools.localize(TOOL));
  });
});
