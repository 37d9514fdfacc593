// Compiles a test fixture (a Nest app in TypeScript) to JavaScript that a child process runs:
// `dist-test/<its path>.js`, inside the repository so that `nestjs-mcp` resolves to the built
// package (dist/, by its own name) and every dependency to node_modules. One file at a time,
// with the decorators and their metadata the app needs; type-only imports are dropped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT, requireBuilt } from '../transports/stdio/stdio-process.js';

/** Compiles `source` (a path from the repository root) and returns the path of its script. */
export function buildFixture(source: string): string {
  requireBuilt('dist/index.js');
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(join(ROOT, source), 'utf8'), {
    fileName: source,
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2023,
      // ESM, as the package is (`"type": "module"`); transpileModule cannot read that itself.
      module: ts.ModuleKind.ESNext,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      isolatedModules: true,
    },
  });
  if (diagnostics?.length) {
    throw new Error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
  }
  const target = join(ROOT, 'dist-test', source.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, outputText);
  return relative(ROOT, target);
}
