import type { Tool } from '@modelcontextprotocol/server';
import { summarizeProperties, typeName } from './json-schema.summary.js';
import type { ServerCatalog } from './server-catalog.js';
import { formatTable, wrapText } from './text-table.js';

type Entry = Record<string, any>;

/** One kind of thing a server publishes, as `list` prints it for people. */
interface CatalogSection {
  readonly key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
  readonly title: string;
  /** The overview table: a header row and one row per entry. */
  overview(entries: readonly Entry[]): string[][];
  /** The lines under an entry's heading (description, argument table). */
  details(entry: Entry, width: number): string[];
  heading(entry: Entry): string;
}

const TOOLS: CatalogSection = {
  key: 'tools',
  title: 'Tools',
  overview: (tools) => [
    ['NAME', 'TITLE', 'HINTS', 'ARGUMENTS'],
    ...tools.map((tool) => [
      tool.name,
      tool.title ?? tool.annotations?.title ?? '',
      hintsOf(tool as Tool) || '-',
      summarizeProperties(tool.inputSchema)
        .map((property) => (property.required ? property.name : `${property.name}?`))
        .join(', ') || '(none)',
    ]),
  ],
  heading: (tool) => tool.name,
  details: (tool, width) => {
    const lines = tool.description ? wrapText(tool.description, width, '    ') : [];
    const properties = summarizeProperties(tool.inputSchema);
    if (properties.length === 0) lines.push('    No arguments.');
    else {
      const described = properties.some((p) => p.description);
      lines.push(
        ...formatTable(
          [
            ['ARGUMENT', 'TYPE', 'REQUIRED', 'CONSTRAINTS', ...(described ? ['DESCRIPTION'] : [])],
            ...properties.map((p) => [
              p.name,
              p.type,
              p.required ? 'yes' : 'no',
              p.constraints || '-',
              ...(described ? [p.description] : []),
            ]),
          ],
          '    ',
        ),
      );
    }
    if (tool.outputSchema) lines.push(`    Returns: ${outputOf(tool.outputSchema)}`);
    return lines;
  },
};

const PROMPTS: CatalogSection = {
  key: 'prompts',
  title: 'Prompts',
  overview: (prompts) => [
    ['NAME', 'TITLE', 'ARGUMENTS'],
    ...prompts.map((prompt) => [
      prompt.name,
      prompt.title ?? '',
      ((prompt.arguments ?? []) as Entry[])
        .map((argument) => (argument.required ? argument.name : `${argument.name}?`))
        .join(', ') || '(none)',
    ]),
  ],
  heading: (prompt) => prompt.name,
  details: (prompt, width) => {
    const lines = prompt.description ? wrapText(prompt.description, width, '    ') : [];
    const args = (prompt.arguments ?? []) as Entry[];
    if (args.length > 0) {
      const described = args.some((a) => a.description);
      lines.push(
        ...formatTable(
          [
            ['ARGUMENT', 'REQUIRED', ...(described ? ['DESCRIPTION'] : [])],
            ...args.map((a) => [
              a.name,
              a.required ? 'yes' : 'no',
              ...(described ? [a.description ?? ''] : []),
            ]),
          ],
          '    ',
        ),
      );
    }
    return lines;
  },
};

const resourceSection = (
  key: 'resources' | 'resourceTemplates',
  title: string,
): CatalogSection => ({
  key,
  title,
  overview: (resources) => [
    ['NAME', key === 'resources' ? 'URI' : 'URI TEMPLATE', 'MIME TYPE'],
    ...resources.map((resource) => [
      resource.name ?? '',
      resource.uri ?? resource.uriTemplate ?? '',
      resource.mimeType ?? '-',
    ]),
  ],
  heading: (resource) => `${resource.name ?? ''} (${resource.uri ?? resource.uriTemplate ?? ''})`,
  details: (resource, width) =>
    resource.description ? wrapText(resource.description, width, '    ') : [],
});

/**
 * Every section `list` knows, in print order. A section whose listing the host does not
 * offer is left out, so a new kind (say, completions) is one more entry here.
 */
const SECTIONS: readonly CatalogSection[] = [
  TOOLS,
  PROMPTS,
  resourceSection('resources', 'Resources'),
  resourceSection('resourceTemplates', 'Resource templates'),
];

/** The catalogs of the servers as text for people: an overview table per section, then details. */
export function formatCatalogs(catalogs: readonly ServerCatalog[], width = 100): string {
  const lines: string[] = [];
  for (const catalog of catalogs) {
    if (lines.length > 0) lines.push('');
    lines.push(`MCP server ${catalog.name} ${catalog.version}`);
    if (catalog.instructions) lines.push(...wrapText(catalog.instructions, width, '  '));
    for (const section of SECTIONS) {
      const entries = catalog[section.key] as readonly Entry[] | undefined;
      if (entries === undefined) continue;
      lines.push('', `${section.title} (${entries.length})`);
      if (entries.length === 0) continue;
      lines.push(...formatTable(section.overview(entries), '  '));
      for (const entry of entries) {
        lines.push('', `  ${section.heading(entry)}`, ...section.details(entry, width));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function hintsOf(tool: Tool): string {
  const hints: string[] = [];
  const annotations = tool.annotations ?? {};
  if (annotations.readOnlyHint) hints.push('read-only');
  else {
    if (annotations.destructiveHint) hints.push('destructive');
    if (annotations.idempotentHint) hints.push('idempotent');
  }
  if (annotations.openWorldHint === false) hints.push('closed-world');
  return hints.join(', ');
}

function outputOf(schema: Entry): string {
  const properties = summarizeProperties(schema);
  if (properties.length === 0) return typeName(schema);
  return `{ ${properties.map((p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`).join(', ')} }`;
}
