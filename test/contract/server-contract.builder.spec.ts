import { describe, expect, it } from 'vitest';
import type {
  ContractLister,
  ContractListMethod,
  ServerContract,
} from '../../lib/contract/mcp-contract.interface.js';
import {
  assembleContract,
  describeServerContract,
  serializeContract,
} from '../../lib/contract/server-contract.builder.js';

/** A lister over fixed lists, recording what was asked. */
function listerOf(lists: Partial<Record<ContractListMethod, Record<string, unknown>[]>>) {
  const asked: ContractListMethod[] = [];
  const lister: ContractLister = {
    list: async (method) => {
      asked.push(method);
      return structuredClone(lists[method] ?? []);
    },
  };
  return { lister, asked };
}

const SEARCH = {
  description: 'Search the catalog.\n  Use `query` — every word must match.',
  name: 'search',
  inputSchema: {
    type: 'object',
    required: ['query', 'limit'],
    properties: {
      query: { type: 'string', description: 'Words' },
      limit: { type: 'integer', enum: [10, 5, 20] },
    },
  },
  annotations: { title: 'Search', readOnlyHint: true },
  _meta: {
    'ui/resourceUri': 'ui://search',
    'io.modelcontextprotocol/serverInfo': { name: 'catalog' },
    traceparent: '00-abc-def-01',
  },
};

describe('describeServerContract', () => {
  it('asks for the four lists and labels the contract, anonymous and default by default', async () => {
    const { lister, asked } = listerOf({});
    const contract = await describeServerContract(lister, { server: 'catalog' });
    expect(asked.toSorted()).toEqual([
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'tools/list',
    ]);
    expect(contract).toEqual({
      server: 'catalog',
      caller: 'anonymous',
      locale: 'default',
      tools: [],
      prompts: [],
      resources: [],
      resourceTemplates: [],
    });
    const labelled = await describeServerContract(lister, {
      server: 'catalog',
      caller: 'reader',
      locale: 'de',
    });
    expect(labelled).toMatchObject({ caller: 'reader', locale: 'de' });
  });

  it('sorts entries by their key and keys at every depth, the key first', async () => {
    const { lister } = listerOf({
      'tools/list': [SEARCH, { name: 'add', inputSchema: { type: 'object' } }],
    });
    const { tools } = await describeServerContract(lister, { server: 'catalog' });
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'search']);
    // Code-point order: "_" sorts before the letters.
    expect(Object.keys(tools[1]!)).toEqual([
      'name',
      '_meta',
      'annotations',
      'description',
      'inputSchema',
    ]);
    const schema = tools[1]!.inputSchema as Record<string, any>;
    expect(Object.keys(schema)).toEqual(['properties', 'required', 'type']);
    expect(Object.keys(schema.properties)).toEqual(['limit', 'query']);
  });

  it('keeps texts exactly and arrays in their published order', async () => {
    const { lister } = listerOf({ 'tools/list': [SEARCH] });
    const [tool] = (await describeServerContract(lister, { server: 'catalog' })).tools;
    expect(tool!.description).toBe(SEARCH.description);
    const schema = tool!.inputSchema as Record<string, any>;
    expect(schema.required).toEqual(['query', 'limit']);
    expect(schema.properties.limit.enum).toEqual([10, 5, 20]);
    expect(tool!.annotations).toEqual({ readOnlyHint: true, title: 'Search' });
  });

  it("leaves out the protocol's and tracing's _meta keys, keeping the author's", async () => {
    const { lister } = listerOf({
      'tools/list': [SEARCH, { name: 'traced', inputSchema: {}, _meta: { traceparent: 'x' } }],
    });
    const { tools } = await describeServerContract(lister, { server: 'catalog' });
    expect(tools.find((tool) => tool.name === 'search')!._meta).toEqual({
      'ui/resourceUri': 'ui://search',
    });
    // Nothing left: no empty _meta.
    expect(tools.find((tool) => tool.name === 'traced')).not.toHaveProperty('_meta');
  });

  it('records only the fields of the format, so fields it does not know stay out', async () => {
    const { lister } = listerOf({
      'tools/list': [
        { name: 'a', inputSchema: {}, execution: { taskSupport: 'optional' }, extra: 1 },
      ],
    });
    const [tool] = (await describeServerContract(lister, { server: 's' })).tools;
    // `execution` too: only 2025-11-25 lists it, and a contract is the same on either revision.
    expect(tool).toEqual({ name: 'a', inputSchema: {} });
  });

  it('keeps prompt arguments in their order, each with its name first', async () => {
    const { lister } = listerOf({
      'prompts/list': [
        {
          name: 'plan',
          description: 'Plan.',
          arguments: [
            { required: true, name: 'weeks', description: 'How many' },
            { name: 'category' },
          ],
          icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
        },
      ],
    });
    const [prompt] = (await describeServerContract(lister, { server: 's' })).prompts;
    expect(prompt).toEqual({
      name: 'plan',
      arguments: [{ name: 'weeks', description: 'How many', required: true }, { name: 'category' }],
      description: 'Plan.',
      icons: [{ mimeType: 'image/png', src: 'https://example.com/i.png' }],
    });
    expect(Object.keys((prompt!.arguments as object[])[0]!)).toEqual([
      'name',
      'description',
      'required',
    ]);
  });

  it("leaves out a resource's size and lastModified, which follow its content", async () => {
    const { lister } = listerOf({
      'resources/list': [
        {
          uri: 'shop://b',
          name: 'b',
          size: 1234,
          annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-01T00:00:00Z' },
        },
        { uri: 'shop://a', name: 'a', annotations: { lastModified: '2026-01-01T00:00:00Z' } },
      ],
      'resources/templates/list': [
        { uriTemplate: 'shop://items/{id}', name: 'item', mimeType: 'application/json' },
      ],
    });
    const contract = await describeServerContract(lister, { server: 's' });
    expect(contract.resources).toEqual([
      { uri: 'shop://a', name: 'a' },
      { uri: 'shop://b', annotations: { audience: ['user'], priority: 0.5 }, name: 'b' },
    ]);
    expect(contract.resourceTemplates).toEqual([
      { uriTemplate: 'shop://items/{id}', mimeType: 'application/json', name: 'item' },
    ]);
  });

  it('refuses an entry without its key, naming the list', async () => {
    const { lister } = listerOf({ 'tools/list': [{ description: 'nameless' }] });
    await expect(describeServerContract(lister, { server: 's' })).rejects.toThrow(
      /tools\/list returned an entry without a string "name"/,
    );
  });

  it('gives the same JSON for the same lists in any order', async () => {
    const tools = [SEARCH, { name: 'add', inputSchema: { type: 'object' } }];
    const one = await describeServerContract(listerOf({ 'tools/list': tools }).lister, {
      server: 's',
    });
    const other = await describeServerContract(
      listerOf({ 'tools/list': tools.toReversed() }).lister,
      { server: 's' },
    );
    expect(JSON.stringify(other)).toBe(JSON.stringify(one));
  });
});

const empty = (server: string, caller: string, locale = 'default'): ServerContract => ({
  server,
  caller,
  locale,
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
});

describe('assembleContract', () => {
  it('makes a version 1 file with the servers sorted by server, caller and locale', () => {
    const contract = assembleContract([
      empty('shop', 'reader'),
      empty('ops', 'reader'),
      empty('shop', 'admin', 'de'),
      empty('shop', 'admin'),
    ]);
    expect(contract.contractVersion).toBe(1);
    expect(contract.servers.map((s) => `${s.server}/${s.caller}/${s.locale}`)).toEqual([
      'ops/reader/default',
      'shop/admin/de',
      'shop/admin/default',
      'shop/reader/default',
    ]);
    expect(serializeContract(contract)).toMatch(/^\{\n {2}"contractVersion": 1,\n[\s\S]*\}\n$/);
  });

  it('refuses the same server, caller and locale twice', () => {
    expect(() => assembleContract([empty('shop', 'reader'), empty('shop', 'reader')])).toThrow(
      'The contract has the server shop twice for the caller "reader" and the locale "default"',
    );
  });
});
