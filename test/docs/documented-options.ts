import { join } from 'node:path';
import ts from 'typescript';
import { readmeSection, REPO_ROOT } from '../support/readme-blocks.js';

/**
 * The names in the first column of the Markdown tables of a `###` section of README.md:
 * every code span of the cell (`` `stdin`, `stdout` `` gives both).
 */
export function tableNames(heading: string): string[] {
  const section = readmeSection('Reference');
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line === `### ${heading}`);
  if (start < 0) throw new Error(`README.md has no "### ${heading}" in its Reference`);
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('### ')) break;
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const first = line.split(/(?<!\\)\|/)[1] ?? '';
    names.push(...[...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
  }
  return names;
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

/** The exports of `nestjs-mcp` (lib/index.ts), from a Program that includes it. */
export function publicExports(program: ts.Program): ts.Symbol[] {
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(join(REPO_ROOT, 'lib/index.ts'));
  const module = index && checker.getSymbolAtLocation(index);
  if (!module) throw new Error('lib/index.ts is not in the Program');
  return checker.getExportsOfModule(module);
}

/** The public interface `name` of `nestjs-mcp`. */
function exportedType(program: ts.Program, name: string): ts.Type {
  const checker = program.getTypeChecker();
  const symbol = publicExports(program).find((s) => s.name === name);
  if (!symbol) throw new Error(`nestjs-mcp exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

/**
 * Compares the options of a public interface with the names a reference table lists.
 * An option object of {@link NESTED} is covered by its own row (`http`) or none, and its
 * keys must be listed with the prefix (`http.path`). Returns what is missing and what the
 * table names that the interface does not have.
 */
export function optionCoverage(
  program: ts.Program,
  interfaceName: string,
  documented: readonly string[],
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
  visit(exportedType(program, interfaceName), '');
  return { missing, unknown: documented.filter((name) => !known.has(name)) };
}
