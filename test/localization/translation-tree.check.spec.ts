import { describe, expect, it } from 'vitest';
import {
  publishedEntries,
  translationTreeProblems,
  type PublishedEntries,
} from '../../lib/localization/translation-tree.check.js';

const PUBLISHED: PublishedEntries = publishedEntries({
  tools: [
    {
      name: 'search_products',
      inputSchema: { type: 'object', properties: { query: {}, limit: {} } },
    },
    { name: 'ping', inputSchema: { type: 'object' } },
  ],
  prompts: [{ name: 'restock_plan', arguments: [{ name: 'sku' }, { name: 'days' }] }],
  resources: [{ uri: 'catalog://categories', name: 'categories' }],
  templates: [{ uriTemplate: 'catalog://products/{sku}', name: 'product' }],
});

/** The problems of a tree as `path: message` lines. */
const problemsOf = (tree: Record<string, unknown>, known?: (name: string) => boolean) =>
  translationTreeProblems(tree, PUBLISHED, known).map(
    ({ path, message }) => `${path.join(' > ')}: ${message}`,
  );

describe('publishedEntries', () => {
  it('names every published entry with its kind and its argument names', () => {
    expect([...PUBLISHED]).toEqual([
      ['search_products', { kind: 'tool', arguments: ['query', 'limit'] }],
      ['ping', { kind: 'tool', arguments: [] }],
      ['restock_plan', { kind: 'prompt', arguments: ['sku', 'days'] }],
      ['catalog://categories', { kind: 'resource' }],
      ['catalog://products/{sku}', { kind: 'resource template' }],
    ]);
  });

  it('gives a prompt that shares a tool’s name the arguments of both', () => {
    const entries = publishedEntries({
      tools: [{ name: 'plan', inputSchema: { type: 'object', properties: { sku: {} } } }],
      prompts: [{ name: 'plan', arguments: [{ name: 'sku' }, { name: 'days' }] }, { name: 'bare' }],
      resources: [],
      templates: [],
    });
    expect(entries.get('plan')).toEqual({ kind: 'prompt', arguments: ['sku', 'days'] });
    expect(entries.get('bare')).toEqual({ kind: 'prompt', arguments: [] });
  });
});

describe('translationTreeProblems', () => {
  it('accepts texts of every published entry, the server and the messages', () => {
    expect(
      problemsOf({
        search_products: {
          title: 'Produkte suchen',
          description: 'Sucht im Katalog.',
          arguments: { query: { description: 'Wörter' }, limit: null },
        },
        restock_plan: { arguments: { days: { description: 'Tage' } } },
        'catalog://categories': { title: 'Kategorien' },
        'catalog://products/{sku}': { description: 'Ein Produkt' },
        ping: null,
        _server: { instructions: 'Hallo' },
        _messages: { isInt: '$property muss ganz sein', unknownTool: null },
      }),
    ).toEqual([]);
  });

  it('names the nearest published name of a key that names nothing', () => {
    expect(problemsOf({ search_product: { title: 'x' }, zzz: {} })).toEqual([
      'search_product: "search_product" names no tool, prompt, resource or resource template ' +
        'this server publishes. Did you mean "search_products"? Keys are published names ' +
        '(tools/list shows them), _server or _messages.',
      'zzz: "zzz" names no tool, prompt, resource or resource template this server publishes. ' +
        'Keys are published names (tools/list shows them), _server or _messages.',
    ]);
  });

  it('lets a key name what the app publishes elsewhere, when asked', () => {
    expect(problemsOf({ other_tool: { title: 'x' } }, (name) => name === 'other_tool')).toEqual([]);
  });

  it('refuses a field an entry does not have, suggesting the nearest', () => {
    expect(problemsOf({ search_products: { descripton: 'x', label: 'y' } })).toEqual([
      'search_products > descripton: the tool "search_products" has no field "descripton". ' +
        'Did you mean "description"? Translatable fields here: title, description, arguments.',
      'search_products > label: the tool "search_products" has no field "label". ' +
        'Translatable fields here: title, description, arguments.',
    ]);
  });

  it('gives resources and templates no arguments field', () => {
    expect(
      problemsOf({
        'catalog://categories': { arguments: {} },
        'catalog://products/{sku}': { arguments: { sku: { description: 'x' } } },
      }),
    ).toEqual([
      'catalog://categories > arguments: the resource "catalog://categories" has no field ' +
        '"arguments". Translatable fields here: title, description.',
      'catalog://products/{sku} > arguments: the resource template "catalog://products/{sku}" ' +
        'has no field "arguments". Translatable fields here: title, description.',
    ]);
  });

  it('refuses an argument the entry does not have, listing its arguments', () => {
    expect(
      problemsOf({
        search_products: { arguments: { querry: { description: 'x' } } },
        ping: { arguments: { host: { description: 'x' } } },
      }),
    ).toEqual([
      'search_products > arguments > querry: the tool "search_products" has no argument ' +
        '"querry". Did you mean "query"? Its arguments: query, limit.',
      'ping > arguments > host: the tool "ping" has no argument "host". Its arguments: none.',
    ]);
  });

  it('refuses texts that are not strings and mappings that are not mappings', () => {
    expect(
      problemsOf({
        search_products: { title: ['a', 'b'], arguments: { query: { description: 5 } } },
        restock_plan: { arguments: ['sku'] },
        'catalog://categories': 'Kategorien',
        _server: { instructions: { de: 'x' }, name: 'y' },
      }),
    ).toEqual([
      'search_products > title: the title of the tool "search_products" must be a string.',
      'search_products > arguments > query > description: the description of the argument ' +
        '"query" must be a string.',
      'restock_plan > arguments: the arguments of the prompt "restock_plan" must be a mapping ' +
        'of argument names to { description }.',
      'catalog://categories: the texts of the resource "catalog://categories" must be a ' +
        'mapping of title, description.',
      '_server > instructions: the instructions of the server must be a string.',
      '_server > name: the server has no field "name". Translatable fields here: instructions.',
    ]);
  });

  it('wants _messages to map ids to texts', () => {
    expect(problemsOf({ _messages: ['isInt'] })).toEqual([
      '_messages: _messages must be a mapping of message ids or class-validator constraints ' +
        '(isInt, min, ...) to texts.',
    ]);
    expect(problemsOf({ _messages: { isInt: 5, min: 'ok' } })).toEqual([
      '_messages > isInt: the message "isInt" must be a string.',
    ]);
  });
});
