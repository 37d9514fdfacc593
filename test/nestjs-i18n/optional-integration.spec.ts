import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INTEGRATION = 'lib/nestjs-i18n/';

interface ModuleImport {
  specifier: string;
  /** `import type` / `export type`: erased from the JavaScript. */
  typeOnly: boolean;
}

/** Every module a file names: static and dynamic imports, re-exports, `require()`. */
function importsOf(file: string): ModuleImport[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: ModuleImport[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(clause?.isTypeOnly) ||
          Boolean(
            clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly),
          )
        : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The lib/ files an entry point reaches through relative imports, each with what it imports. */
function reachedFrom(entry: string): Map<string, ModuleImport[]> {
  const reached = new Map<string, ModuleImport[]>();
  const pending = [resolve(ROOT, entry)];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (reached.has(file)) continue;
    const imports = importsOf(file);
    reached.set(file, imports);
    for (const { specifier } of imports) {
      if (specifier.startsWith('.')) {
        pending.push(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
      }
    }
  }
  return reached;
}

const isNestI18n = (specifier: string) =>
  specifier === 'nestjs-i18n' || specifier.startsWith('nestjs-i18n/');

/** The package's entry points (exports and bin) as lib/ files, by their dist/ paths. */
const entryPoints = (): Record<string, string> => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
    bin: Record<string, string>;
  };
  const files: Record<string, string> = {};
  for (const [name, target] of Object.entries(pkg.exports)) {
    const path = typeof target === 'string' ? target : target.default;
    if (path.startsWith('./dist/'))
      files[name] = path.replace('./dist/', 'lib/').replace(/\.js$/, '.ts');
  }
  for (const [name, path] of Object.entries(pkg.bin)) {
    files[`bin ${name}`] = path.replace('./dist/', 'lib/').replace(/\.js$/, '.ts');
  }
  return files;
};

describe('the nestjs-i18n integration costs nothing when absent', () => {
  const entries = entryPoints();
  const others = Object.entries(entries).filter(([name]) => name !== './i18n');

  it('is the entry point nestjs-mcp/i18n', () => {
    expect(entries['./i18n']).toBe('lib/nestjs-i18n/index.ts');
    expect(others.map(([name]) => name)).toEqual(
      expect.arrayContaining(['.', './testing', './plugin', 'bin nestjs-mcp']),
    );
  });

  it.each(others)('%s (%s) reaches neither nestjs-i18n nor the integration', (_name, entry) => {
    const reached = reachedFrom(entry);
    expect(reached.size).toBeGreaterThan(0);
    const offending = [...reached].flatMap(([file, imports]) => {
      const path = relative(ROOT, file);
      if (path.startsWith(INTEGRATION)) return [`${path} (the integration itself)`];
      return imports
        .filter(({ specifier }) => isNestI18n(specifier))
        .map(({ specifier }) => `${path} imports ${specifier}`);
    });
    expect(offending).toEqual([]);
  });

  it('leaves no file of lib/ outside the integration naming nestjs-i18n in an import', () => {
    const files = readdirSync(join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' })
      .map((file) => `lib/${file.split('\\').join('/')}`)
      .filter((file) => file.endsWith('.ts') && !file.startsWith(INTEGRATION));
    const offending = files.filter((file) =>
      importsOf(join(ROOT, file)).some(({ specifier }) => isNestI18n(specifier)),
    );
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it('loads no code of nestjs-i18n in the integration either: it imports its types only', () => {
    const imports = [...reachedFrom(entries['./i18n']!).values()].flat();
    const fromNestI18n = imports.filter(({ specifier }) => isNestI18n(specifier));
    expect(fromNestI18n.length).toBeGreaterThan(0);
    expect(fromNestI18n.filter(({ typeOnly }) => !typeOnly)).toEqual([]);
  });
});
