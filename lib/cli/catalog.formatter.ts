import type { Tool } from '@modelcontextprotocol/server';
import { summarizeProperties, typeName } from './json-schema.summary.js';
import type { ServerCatalog } from './server-catalog.js';
import { formatTable, wrapText } from './text-table.js';

type Entry = Record<string, any>;
/** A prompt argument, or a tool argument as `summarizeProperties` gives it. */
type Argument = { name: string; required?: boolean; description?: string };

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
      argumentList(summarizeProperties(tool.inputSchema)),
    ]),
  ],
  heading: (tool) => tool.name,
  details: (tool, width) => {
    const lines = descriptionOf(tool, width);
    const properties = summarizeProperties(tool.inputSchema);
    if (properties.length === 0) lines.push('    No arguments.');
    else {
      lines.push(
        ...argumentTable(['ARGUMENT', 'TYPE', 'REQUIRED', 'CONSTRAINTS'], properties, (p) => [
          p.name,
          p.type,
          p.required ? 'yes' : 'no',
          p.constraints || '-',
        ]),
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
      argumentList((prompt.arguments ?? []) as Argument[]),
    ]),
  ],
  heading: (prompt) => prompt.name,
  details: (prompt, width) => {
    const lines = descriptionOf(prompt, width);
    const args = (prompt.arguments ?? []) as Argument[];
    if (args.length > 0) {
      lines.push(
        ...argumentTable(['ARGUMENT', 'REQUIRED'], args, (a) => [
          a.name,
          a.required ? 'yes' : 'no',
        ]),
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
  details: descriptionOf,
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
    if (catalog.hidden) lines.push('', ...hiddenSection(catalog.hidden, width));
  }
  return `${lines.join('\n')}\n`;
}

/** `--hidden`: what is kept off MCP, and why, for operators. */
function hiddenSection(hidden: NonNullable<ServerCatalog['hidden']>, width: number): string[] {
  const lines = [`Hidden (${hidden.length}): kept off MCP with @McpHidden() or { hidden }`];
  if (hidden.length === 0) return lines;
  const whereWidth = Math.max(6, ...hidden.map(({ where }) => where.length));
  lines.push(`  ${'METHOD'.padEnd(whereWidth)}  REASON`);
  for (const { where, reason } of hidden) {
    // The reason is prose: wrapped under its column rather than stretching the table.
    const [first = '', ...rest] = wrapText(reason, Math.max(30, width - whereWidth - 4), '');
    lines.push(`  ${where.padEnd(whereWidth)}  ${first}`);
    for (const line of rest) lines.push(`  ${' '.repeat(whereWidth)}  ${line}`);
  }
  return lines;
}

/** An entry's description, wrapped under its heading. */
function descriptionOf(entry: Entry, width: number): string[] {
  return entry.description ? wrapText(entry.description, width, '    ') : [];
}

/** `a, b?` for the overview: each argument, `?` when optional. */
function argumentList(args: readonly Argument[]): string {
  return args.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ') || '(none)';
}

/** The argument table under an entry, with a DESCRIPTION column only when one has a description. */
function argumentTable<T extends Argument>(
  header: string[],
  args: readonly T[],
  cells: (argument: T) => string[],
): string[] {
  const described = args.some((a) => a.description);
  return formatTable(
    [
      [...header, ...(described ? ['DESCRIPTION'] : [])],
      ...args.map((a) => [...cells(a), ...(described ? [a.description ?? ''] : [])]),
    ],
    '    ',
  );
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
