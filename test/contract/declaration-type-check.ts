import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../support/readme-blocks.js';

/**
 * Type-checks in-memory files with the TypeScript compiler (a real Program, not
 * `transpileModule`, which checks nothing), as a view's `tsc` would: strict, browser-style
 * modules, declaration files checked too (`skipLibCheck: false`), so that a declaration
 * file that does not compile fails as surely as a wrong use of it.
 */
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // A view runs in the browser.
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: false,
  noUnusedLocals: false,
  exactOptionalPropertyTypes: false,
};

/**
 * The in-memory folder (nothing is written there). It lies inside the repository, so that
 * a view's `import type { App } from '@modelcontextprotocol/ext-apps'` finds node_modules.
 */
const ROOT = join(REPO_ROOT, '.declarations-check/');

/** The library and package files, parsed once for every Program of the run. */
const libraryFiles = new Map<string, ts.SourceFile | undefined>();

/** The diagnostics of each file (`app-tools.d.ts`, `view.ts`...), as `TS2322 message` lines. */
export function typeCheck(files: Record<string, string>): Record<string, string[]> {
  const host = ts.createCompilerHost(OPTIONS);
  const virtual = new Map(Object.entries(files).map(([name, text]) => [ROOT + name, text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, version, onError) => {
    const text = virtual.get(fileName);
    if (text !== undefined) return ts.createSourceFile(fileName, text, version);
    if (!libraryFiles.has(fileName)) {
      libraryFiles.set(fileName, getSourceFile.call(host, fileName, version, onError));
    }
    return libraryFiles.get(fileName);
  };
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(fileName) ?? readFile.call(host, fileName);
  // Module resolution looks for the folder before the file.
  const { directoryExists } = host;
  host.directoryExists = (name) =>
    `${name}/` === ROOT || (directoryExists?.call(host, name) ?? true);
  const program = ts.createProgram([...virtual.keys()], OPTIONS, host);
  const result: Record<string, string[]> = Object.fromEntries(
    Object.keys(files).map((name) => [name, []]),
  );
  // Only the given files are checked (whole, declaration files too), and what they use of the
  // packages they import: checking every declaration of those packages would take a minute.
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...virtual.keys()].flatMap((fileName) => {
      const source = program.getSourceFile(fileName)!;
      return [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ];
    }),
  ];
  for (const diagnostic of diagnostics) {
    const name = diagnostic.file?.fileName.slice(ROOT.length) ?? '(program)';
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    (result[name] ??= []).push(`TS${diagnostic.code} ${message}`);
  }
  return result;
}

/** Every diagnostic of every file, for an expectation of none. */
export const allDiagnostics = (files: Record<string, string>): string[] =>
  Object.entries(typeCheck(files)).flatMap(([name, lines]) =>
    lines.map((line) => `${name}: ${line}`),
  );
