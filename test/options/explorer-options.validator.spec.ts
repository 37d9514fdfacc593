import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { explorerOptionsProblems } from '../../lib/options/explorer-options.validator.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

describe('explorerOptionsProblems', () => {
  it.each([
    undefined,
    true,
    false,
    {},
    { enabled: true, path: '/tools-explorer', title: 'Tools' },
    { path: '/mcp/explorer/' },
    { path: '/a.b/c_d~e-f' },
  ])('accepts %j', (explorer) => {
    expect(explorerOptionsProblems(explorer, undefined)).toEqual([]);
  });

  it.each([
    ['a string', 'yes', '"explorer" must be true, false or an object'],
    ['an array', [], '"explorer" must be true, false or an object'],
    ['enabled not a boolean', { enabled: 'yes' }, '"explorer.enabled" must be true or false'],
    ['a relative path', { path: 'explorer' }, `"explorer.path" must be an absolute path`],
    ['the root', { path: '/' }, `"explorer.path" must be an absolute path`],
    ['a path with ..', { path: '/a/../b' }, `"explorer.path" must be an absolute path`],
    ['a path with a query', { path: '/a?b' }, `"explorer.path" must be an absolute path`],
    ['a path with a space', { path: '/a b' }, `"explorer.path" must be an absolute path`],
    ['a path with a parameter', { path: '/:id' }, `"explorer.path" must be an absolute path`],
    ['an empty title', { title: '' }, '"explorer.title" must be a non-empty string'],
  ])('refuses %s', (_, explorer, message) => {
    const problems = explorerOptionsProblems(explorer, undefined);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it("refuses the endpoint's own path", () => {
    expect(explorerOptionsProblems({ path: '/mcp' }, undefined)).toEqual([
      `"explorer.path" must differ from the endpoint's path ("/mcp"), such as '/mcp/explorer'`,
    ]);
    expect(explorerOptionsProblems({ path: '/api/' }, { path: 'api' })).toHaveLength(1);
    expect(explorerOptionsProblems({ path: '/mcp' }, { path: 'api' })).toEqual([]);
  });

  it('refuses an explorer turned on without the HTTP endpoint', () => {
    for (const explorer of [true, { enabled: true }]) {
      expect(explorerOptionsProblems(explorer, false)).toEqual([
        '"explorer" needs the HTTP endpoint, which http: false turns off: remove one of them',
      ]);
    }
    expect(explorerOptionsProblems(undefined, false)).toEqual([]);
    expect(explorerOptionsProblems(false, false)).toEqual([]);
  });

  it('is part of what McpModule checks, its unknown keys named', () => {
    expect(() =>
      validateMcpModuleOptions({ name: 'shop', version: '1', explorer: { paht: '/x', title: 1 } }),
    ).toThrow(McpConfigurationError);
    try {
      validateMcpModuleOptions({ name: 'shop', version: '1', explorer: { paht: '/x', title: 1 } });
    } catch (error) {
      expect((error as Error).message).toContain('explorer.paht');
      expect((error as Error).message).toContain('explorer.path');
      expect((error as Error).message).toContain('"explorer.title" must be a non-empty string');
    }
  });
});
