import { describe, expect, it } from 'vitest';
import { diffContracts, serverContractKey } from '../../lib/contract/contract.diff.js';
import {
  formatContractDiff,
  summarizeContractDiff,
} from '../../lib/contract/contract-diff.formatter.js';
import type { McpContract, ServerContract } from '../../lib/contract/mcp-contract.interface.js';

const server = (overrides: Partial<ServerContract> = {}): ServerContract => ({
  server: 'catalog',
  caller: 'anonymous',
  locale: 'default',
  tools: [
    {
      name: 'get_product',
      description: 'One product.',
      inputSchema: { properties: { id: { type: 'string' } }, type: 'object' },
    },
    {
      name: 'search_products',
      description: 'Search the catalog.',
      inputSchema: {
        properties: { limit: { maximum: 50, type: 'integer' } },
        required: ['query'],
        type: 'object',
      },
    },
  ],
  prompts: [{ name: 'plan', arguments: [{ name: 'weeks' }, { name: 'category' }] }],
  resources: [{ uri: 'catalog://categories', name: 'categories' }],
  resourceTemplates: [{ uriTemplate: 'catalog://products/{id}', name: 'product' }],
  ...overrides,
});

const contract = (...servers: ServerContract[]): McpContract => ({
  contractVersion: 1,
  servers,
});

/** A deep copy of the base contract with one edit. */
function edited(edit: (copy: Record<string, any>) => void): McpContract {
  const copy = structuredClone(contract(server())) as Record<string, any>;
  edit(copy);
  return copy as McpContract;
}

describe('diffContracts', () => {
  it('finds nothing between equal contracts', () => {
    expect(diffContracts(contract(server()), contract(server()))).toEqual([]);
  });

  it('addresses a changed description by server, caller and tool name', () => {
    const after = edited((c) => (c.servers[0].tools[1].description = 'Find products.'));
    expect(diffContracts(contract(server()), after)).toEqual([
      {
        kind: 'changed',
        pointer: '/servers/catalog@anonymous/tools/search_products/description',
        before: 'Search the catalog.',
        after: 'Find products.',
      },
    ]);
  });

  it('names the field inside a schema, in the order of the contract, arrays by index', () => {
    const after = edited((c) => {
      const schema = c.servers[0].tools[1].inputSchema;
      schema.properties.limit.maximum = 100;
      schema.required.push('limit');
      delete schema.properties.limit.type;
    });
    expect(diffContracts(contract(server()), after)).toEqual([
      {
        kind: 'changed',
        pointer:
          '/servers/catalog@anonymous/tools/search_products/inputSchema/properties/limit/maximum',
        before: 50,
        after: 100,
      },
      {
        kind: 'removed',
        pointer:
          '/servers/catalog@anonymous/tools/search_products/inputSchema/properties/limit/type',
        before: 'integer',
      },
      {
        kind: 'added',
        pointer: '/servers/catalog@anonymous/tools/search_products/inputSchema/required/1',
        after: 'limit',
      },
    ]);
  });

  it('reports an added and a removed tool by name, not as a shifted index', () => {
    const after = edited((c) => {
      c.servers[0].tools.splice(0, 1);
      c.servers[0].tools.push({ name: 'zap', description: 'New.' });
    });
    const differences = diffContracts(contract(server()), after);
    expect(differences.map(({ kind, pointer }) => `${kind} ${pointer}`)).toEqual([
      'removed /servers/catalog@anonymous/tools/get_product',
      'added /servers/catalog@anonymous/tools/zap',
    ]);
    expect(differences[1]!.after).toEqual({ name: 'zap', description: 'New.' });
  });

  it('escapes ~ and / in keys as RFC 6901 asks (resources by URI)', () => {
    const after = edited((c) => {
      c.servers[0].resources[0].name = 'all categories';
      c.servers[0].tools[0].inputSchema.properties['a/b~c'] = { type: 'string' };
    });
    expect(diffContracts(contract(server()), after).map((d) => d.pointer)).toEqual([
      '/servers/catalog@anonymous/tools/get_product/inputSchema/properties/a~1b~0c',
      '/servers/catalog@anonymous/resources/catalog:~1~1categories/name',
    ]);
  });

  it('addresses templates by URI template and prompt arguments by name, and sees a new order', () => {
    const after = edited((c) => {
      c.servers[0].resourceTemplates[0].description = 'One product.';
      c.servers[0].prompts[0].arguments.reverse();
      c.servers[0].prompts[0].arguments[0].required = true;
    });
    expect(diffContracts(contract(server()), after)).toEqual([
      {
        kind: 'added',
        pointer: '/servers/catalog@anonymous/prompts/plan/arguments/category/required',
        after: true,
      },
      {
        kind: 'reordered',
        pointer: '/servers/catalog@anonymous/prompts/plan/arguments',
        before: ['weeks', 'category'],
        after: ['category', 'weeks'],
      },
      {
        kind: 'added',
        pointer:
          '/servers/catalog@anonymous/resourceTemplates/catalog:~1~1products~1{id}/description',
        after: 'One product.',
      },
    ]);
  });

  it('keys servers by server and caller, and by locale when it is not the default', () => {
    const before = contract(
      server({ caller: 'reader' }),
      server({ caller: 'reader', locale: 'de' }),
    );
    const after = contract(server({ caller: 'reader', locale: 'de' }), server({ caller: 'admin' }));
    expect(diffContracts(before, after).map(({ kind, pointer }) => `${kind} ${pointer}`)).toEqual([
      'removed /servers/catalog@reader',
      'added /servers/catalog@admin',
    ]);
    expect(serverContractKey({ server: 'shop', caller: 'reader', locale: 'de' })).toBe(
      'shop@reader[de]',
    );
  });

  it('compares by index when a keyed list has a key twice (a hand-edited file)', () => {
    const before = edited((c) => (c.servers[0].tools[1].name = 'get_product'));
    const after = edited((c) => {
      c.servers[0].tools[1].name = 'get_product';
      c.servers[0].tools[1].description = 'Other.';
    });
    expect(diffContracts(before, after).map((d) => d.pointer)).toEqual([
      '/servers/catalog@anonymous/tools/1/description',
    ]);
  });

  it('sees a value that changed type', () => {
    const after = edited((c) => (c.servers[0].tools[0].inputSchema.properties = []));
    expect(diffContracts(contract(server()), after)).toEqual([
      {
        kind: 'changed',
        pointer: '/servers/catalog@anonymous/tools/get_product/inputSchema/properties',
        before: { id: { type: 'string' } },
        after: [],
      },
    ]);
  });
});

describe('formatContractDiff', () => {
  it('writes one line per difference, strings whole and quoted, structures cut', () => {
    const long = 'x'.repeat(300);
    const text = formatContractDiff([
      {
        kind: 'changed',
        pointer: '/servers/catalog@anonymous/tools/search_products/description',
        before: 'Search the catalog.',
        after: `Find products.\n${long}`,
      },
      { kind: 'added', pointer: '/servers/catalog@anonymous/tools/zap', after: { d: long } },
      { kind: 'removed', pointer: '/servers/catalog@anonymous/tools/old', before: { name: 'old' } },
      { kind: 'reordered', pointer: '/p/arguments', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `/servers/catalog@anonymous/tools/search_products/description changed: "Search the catalog." → "Find products.\\n${long}"`,
    );
    expect(lines[1]).toMatch(/^\/servers\/catalog@anonymous\/tools\/zap added: \{"d":"x+…$/);
    expect(lines[1]!.length).toBeLessThan(220);
    expect(lines[2]).toBe('/servers/catalog@anonymous/tools/old removed: {"name":"old"}');
    expect(lines[3]).toBe('/p/arguments reordered: ["a","b"] → ["b","a"]');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('summarizes the differences by kind', () => {
    expect(
      summarizeContractDiff([
        { kind: 'changed', pointer: '/a' },
        { kind: 'added', pointer: '/b' },
        { kind: 'changed', pointer: '/c' },
      ]),
    ).toBe('3 differences (2 changed, 1 added)');
    expect(summarizeContractDiff([{ kind: 'removed', pointer: '/a' }])).toBe(
      '1 difference (1 removed)',
    );
  });
});
