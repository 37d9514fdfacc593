import { join } from 'node:path';
import ts from 'typescript';
import { readmeSection, REPO_ROOT } from '../support/readme-blocks.js';

/** The page of the reference: every option, decorator and export, one `##` section each. */
export const REFERENCE = 'docs/reference.md';

/**
 * The names a `##` section of docs/reference.md documents (or, given `subsection`, one of its
 * `###` subsections): in a list, the code spans that open a top-level item
 * (`` - `stdin`, `stdout` (default ...): ... `` gives both), wherever the item's lines wrap; in
 * a Markdown table, every code span of a row's first cell. Code spans later in an item, and
 * nested items, document nothing.
 */
export function documentedNames(heading: string, subsection?: string): string[] {
  let lines = readmeSection(heading, REFERENCE).split('\n');
  if (subsection !== undefined) {
    const start = lines.indexOf(`### ${subsection}`);
    if (start < 0) throw new Error(`${REFERENCE} has no "### ${subsection}" in "## ${heading}"`);
    lines = lines.slice(start + 1);
  }
  const end = lines.findIndex((line) => line.startsWith('### '));
  const leads: string[] = [];
  for (const [index, line] of lines.slice(0, end < 0 ? undefined : end).entries()) {
    if (line.startsWith('|') && !/^\|\s*-/.test(line)) {
      leads.push(line.split(/(?<!\\)\|/)[1] ?? '');
    } else if (line.startsWith('- ')) {
      // The item with its continuation lines (indented), as one line.
      let item = line;
      for (const next of lines.slice(index + 1)) {
        if (!/^ {2,}\S/.test(next)) break;
        item += ` ${next.trim()}`;
      }
      leads.push(/^- (`[^`]+`(?:, `[^`]+`)*)/.exec(item)?.[1] ?? '');
    }
  }
  return leads.flatMap((lead) => [...lead.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** The titles of the `###` subsections of a `##` section of docs/reference.md. */
export function subsections(heading: string): string[] {
  return readmeSection(heading, REFERENCE)
    .split('\n')
    .filter((line) => line.startsWith('### '))
    .map((line) => line.slice('### '.length));
}

/**
 * The interfaces whose keys the reference lists as keys of their own (`http.path`,
 * `requestState.secret`): the option objects of the module. Any other type is one option.
 */
const NESTED = new Set([
  'McpHttpOptions',
  'LegacySessionOptions',
  'McpRequestStateOptions',
  'McpSchemaOptions',
]);

/**
 * The exports of an entry point, by its barrel (`lib/index.ts`, the one of `nestjs-mcp`, by
 * default), from a Program that includes it.
 */
export function publicExports(program: ts.Program, barrel = 'lib/index.ts'): ts.Symbol[] {
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(join(REPO_ROOT, barrel));
  const module = index && checker.getSymbolAtLocation(index);
  if (!module) throw new Error(`${barrel} is not in the Program`);
  return checker.getExportsOfModule(module);
}

/** The public interface `name` of the entry point whose barrel is `barrel`. */
function exportedType(program: ts.Program, name: string, barrel: string): ts.Type {
  const checker = program.getTypeChecker();
  const symbol = publicExports(program, barrel).find((s) => s.name === name);
  if (!symbol) throw new Error(`${barrel} exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

/**
 * Compares the options of a public interface with the names docs/reference.md lists.
 * An option object of {@link NESTED} is covered by its own item (`http`) or none, and its
 * keys must be listed with the prefix (`http.path`). Returns what is missing and what the
 * reference names that the interface does not have.
 */
export function optionCoverage(
  program: ts.Program,
  interfaceName: string,
  documented: readonly string[],
  barrel = 'lib/index.ts',
): { missing: string[]; unknown: string[] } {
  const checker = program.getTypeChecker();
  const listed = new Set(documented);
  const known = new Set<string>();
  const missing: string[] = [];
  const visit = (type: ts.Type, prefix: string) => {
    for (const property of checker.getPropertiesOfType(type)) {
      const path = prefix + property.name;
      known.add(path);
      const valueType = checker.getNonNullableType(checker.getTypeOfSymbol(property));
      const parts = valueType.isUnion() ? valueType.types : [valueType];
      const nested = parts.filter((part) => NESTED.has(part.getSymbol()?.name ?? ''));
      if (nested.length === 0 && !listed.has(path)) missing.push(path);
      for (const part of nested) visit(part, `${path}.`);
    }
  };
  visit(exportedType(program, interfaceName, barrel), '');
  return { missing, unknown: documented.filter((name) => !known.has(name)) };
}
