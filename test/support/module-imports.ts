// What the package's entry points reach, read from the sources with the TypeScript parser:
// the tests that optional integrations (nestjs-i18n, Redis) cost nothing when unused.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export interface ModuleImport {
  specifier: string;
  /** `import type` / `export type`: erased from the JavaScript. */
  typeOnly: boolean;
}

/** Every module a file names: static and dynamic imports, re-exports, `require()`. */
export function importsOf(file: string): ModuleImport[] {
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
export function reachedFrom(entry: string): Map<string, ModuleImport[]> {
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

/** The package's entry points (exports and bin) as lib/ files, by their dist/ paths. */
export const entryPoints = (): Record<string, string> => {
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

/** Every .ts file of lib/, as `lib/...` paths. */
export function libFiles(): string[] {
  return readdirSync(join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' })
    .map((file) => `lib/${file.split('\\').join('/')}`)
    .filter((file) => file.endsWith('.ts'));
}
