// The published types (dist/**/*.d.ts, made by `npm run build`, which `npm test` runs
// first): nothing marked internal reaches them, and they are whole, so an app that
// type-checks its dependencies (`skipLibCheck: false`) gets no error from this package.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entryPoints, ROOT } from '../support/module-imports.js';

const DIST = join(ROOT, 'dist');

function declarationFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the published declarations', () => {
  it('have been built', () => {
    expect(existsSync(join(DIST, 'index.d.ts'))).toBe(true);
  });

  it('contain no declaration marked @internal', () => {
    const marked = declarationFiles(DIST).filter((file) =>
      readFileSync(file, 'utf8').includes('@internal'),
    );
    expect(marked.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('type-check as an app that checks its libraries sees them, from every entry point', () => {
    // The entry points' declarations, as the exports map names them (the CLI has none).
    const roots = Object.entries(entryPoints())
      .filter(([name]) => !name.startsWith('bin '))
      .map(([, source]) => join(DIST, source.replace(/^lib\//, '').replace(/\.ts$/, '.d.ts')));
    const program = ts.createProgram(roots, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    });
    // Only this package's files: other packages' declarations are theirs to keep whole.
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName.startsWith(DIST))
      .map(
        (diagnostic) =>
          `${relative(ROOT, diagnostic.file!.fileName)}: ` +
          ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      );
    expect(problems).toEqual([]);
  });
});
