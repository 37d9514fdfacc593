import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { McpLocalization } from '../../lib/localization/mcp-localization.js';
import { publishedEntries } from '../../lib/localization/translation-tree.check.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A translation directory with the given files (path → text). */
function translations(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-i18n-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const PUBLISHED = publishedEntries({
  tools: [
    {
      name: 'search_products',
      inputSchema: { type: 'object', properties: { query: {}, limit: {} } },
    },
  ],
  prompts: [{ name: 'restock_plan', arguments: [{ name: 'sku' }] }],
  resources: [{ uri: 'catalog://categories', name: 'categories' }],
  templates: [{ uriTemplate: 'catalog://products/{sku}', name: 'product' }],
});

const load = (dir: string) =>
  McpLocalization.create(
    { defaultLocale: 'en', translations: dir },
    { name: 'shop', published: PUBLISHED, publishedInApp: new Map() },
  );

/** The bootstrap error of loading `dir`. */
function failureOf(dir: string): string {
  try {
    load(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected the translations to be refused');
}

const shown = (dir: string, file: string) => relative(process.cwd(), join(dir, file));

describe('reading and checking translation files', () => {
  it('accepts files that name what the server publishes', () => {
    const dir = translations({
      'mcp.de.yaml': [
        'search_products:',
        '  title: Suchen',
        '  arguments:',
        '    query: { description: Wörter }',
        'restock_plan:',
        '  arguments:',
        '    sku: { description: Produkt }',
        'catalog://categories: { title: Kategorien }',
        'catalog://products/{sku}: { description: Ein Produkt }',
        '_server: { instructions: Hallo }',
        '_messages: { isInt: $property ganz }',
      ].join('\n'),
      'shop/mcp.de.yaml': 'search_products: { title: Produkte suchen }\n',
    });
    expect(load(dir).locales).toEqual(['en', 'de']);
  });

  it('refuses a file that is not valid YAML, naming the file and the line', () => {
    const dir = translations({
      'mcp.de.yaml': 'search_products:\n  title: Suchen\n  description: "offen\n',
    });
    expect(failureOf(dir)).toMatch(
      new RegExp(`^${shown(dir, 'mcp.de.yaml').replaceAll('.', '\\.')}:\\d+:\\d+: not valid YAML`),
    );
  });

  it('refuses a key that names nothing published, with its line and the nearest name', () => {
    const dir = translations({
      'mcp.de.yaml': 'search_products:\n  title: Suchen\nsearch_product:\n  title: Tippfehler\n',
    });
    const message = failureOf(dir);
    expect(message).toContain(`${shown(dir, 'mcp.de.yaml')}:3: "search_product" names no tool`);
    expect(message).toContain('Did you mean "search_products"?');
  });

  it('refuses an unknown field, with its line', () => {
    const dir = translations({
      'shop/mcp.de.yaml': 'search_products:\n  title: Suchen\n  descripton: Sucht\n',
    });
    const message = failureOf(dir);
    expect(message).toContain(`${shown(dir, 'shop/mcp.de.yaml')}:3:`);
    expect(message).toContain('has no field "descripton". Did you mean "description"?');
  });

  it('refuses an argument the tool or prompt does not have, with its line and the nearest name', () => {
    const dir = translations({
      'mcp.de.yaml': [
        'search_products:',
        '  arguments:',
        '    querry:',
        '      description: Wörter',
        'restock_plan:',
        '  arguments:',
        '    skus: { description: Produkt }',
      ].join('\n'),
    });
    const message = failureOf(dir);
    expect(message).toContain('have 2 problem(s)');
    expect(message).toContain(
      `${shown(dir, 'mcp.de.yaml')}:3: the tool "search_products" has no argument "querry". Did you mean "query"?`,
    );
    expect(message).toContain(
      `${shown(dir, 'mcp.de.yaml')}:7: the prompt "restock_plan" has no argument "skus". Did you mean "sku"?`,
    );
  });

  it('refuses a text that is not a string and a resource with arguments', () => {
    const dir = translations({
      'mcp.de.yaml': 'search_products:\n  title: [a, b]\ncatalog://categories:\n  arguments: {}\n',
    });
    const message = failureOf(dir);
    expect(message).toContain(':2: the title of the tool "search_products" must be a string');
    expect(message).toContain(':4: the resource "catalog://categories" has no field "arguments"');
  });

  it('lets a base file name what another server of the app publishes', () => {
    const dir = translations({ 'mcp.de.yaml': 'other_tool: { title: Anderes }\n' });
    const localization = McpLocalization.create(
      { defaultLocale: 'en', translations: dir },
      {
        name: 'shop',
        published: PUBLISHED,
        publishedInApp: new Map([['other_tool', { kind: 'tool', arguments: [] }]]),
      },
    );
    expect(localization.locales).toEqual(['en', 'de']);
  });

  it('refuses a directory that does not exist, saying where it looked', () => {
    expect(() => load(join(tmpdir(), 'no-such-mcp-i18n-dir'))).toThrow(
      /i18n\.translations names the directory ".*no-such-mcp-i18n-dir".*which does not exist/,
    );
  });
});
