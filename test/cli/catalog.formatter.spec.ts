import { describe, expect, it } from 'vitest';
import { formatCatalogs } from '../../lib/cli/catalog.formatter.js';

const tool = {
  name: 'search',
  title: 'Search',
  description: 'Find things.',
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: 'object' as const,
    properties: { query: { type: 'string', description: 'Words to find' } },
    required: ['query'],
  },
  outputSchema: {
    type: 'object' as const,
    properties: { total: { type: 'integer' } },
    required: ['total'],
  },
};

describe('nestjs-mcp list, for people', () => {
  it('prints a section per listing the host offers: tools, then prompts and resources', () => {
    const text = formatCatalogs([
      {
        name: 'shop',
        version: '2.0.0',
        tools: [tool],
        prompts: [{ name: 'plan', arguments: [{ name: 'topic', required: true }] }],
        resources: [{ name: 'menu', uri: 'shop://menu', mimeType: 'text/plain' }],
        resourceTemplates: [{ name: 'item', uriTemplate: 'shop://items/{id}' }],
      },
    ]);
    expect(text).toContain('MCP server shop 2.0.0');
    expect(text).toMatch(/search\s+Search\s+read-only\s+query\n/);
    expect(text).toMatch(/query\s+string\s+yes\s+-\s+Words to find/);
    expect(text).toContain('Returns: { total: integer }');
    expect(text).toMatch(/Prompts \(1\)\n\s+NAME\s+TITLE\s+ARGUMENTS\n\s+plan\s+topic/);
    expect(text).toMatch(
      /Resources \(1\)\n\s+NAME\s+URI\s+MIME TYPE\n\s+menu\s+shop:\/\/menu\s+text\/plain/,
    );
    expect(text).toMatch(/Resource templates \(1\)[\s\S]+item\s+shop:\/\/items\/\{id\}/);
  });

  it('leaves out the sections a catalog does not have (the JSON of an older library)', () => {
    const text = formatCatalogs([{ name: 'old', version: '1.0.0', tools: [tool] }]);
    expect(text).toContain('Tools (1)');
    expect(text).not.toContain('Prompts');
    expect(text).not.toContain('Resources');
  });
});
