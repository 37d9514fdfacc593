import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../support/readme-blocks.js';

/** A TypeScript file taken from a documentation block, compiled without being written. */
export interface DocSourceFile {
  /** Where the file is in the in-memory tree (absolute, below {@link DOC_EXAMPLES_ROOT}). */
  path: string;
  code: string;
  /** The Markdown file and the line of the block's first line of code, for messages. */
  origin: { file: string; line: number };
}

/**
 * The in-memory folder of the blocks. It lies inside the repository (nothing is written
 * there), so that `node_modules` and the repository's `package.json` (`"type": "module"`)
 * apply to the blocks as to the repository's own files.
 */
export const DOC_EXAMPLES_ROOT = join(REPO_ROOT, '.doc-examples');

/**
 * What a block's `import { AppModule } from './app.module.js'` (or `../src/app.module.js`)
 * gets when no block is that file: an empty module, so that examples about `main.ts`,
 * `bootstrapStdio()`, Fastify or tests can stay short and still compile.
 */
const APP_MODULE_STUB = `import { Module } from '@nestjs/common';\n\n@Module({})\nexport class AppModule {}\n`;

const isVirtual = (path: string) => path.startsWith(DOC_EXAMPLES_ROOT);

/** The repository's compiler options (tsconfig.json), `nestjs-mcp` mapped to `lib/index.ts`. */
export function repositoryCompilerOptions(): ts.CompilerOptions {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT).options;
}

/**
 * Compiler options from a `tsconfig.json` block of the docs (its `compilerOptions`), with
 * `nestjs-mcp` mapped to the library's sources instead of an installed package.
 */
export function compilerOptionsFromBlock(json: string, base: string): ts.CompilerOptions {
  const { config, error } = ts.parseConfigFileTextToJson('tsconfig.json', json);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options, errors } = ts.convertCompilerOptionsFromJson(config.compilerOptions, base);
  if (errors.length) {
    throw new Error(
      errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'),
    );
  }
  return options;
}

/** What {@link typeCheck} found, and the Program it built (whose checker knows the library). */
export interface TypeCheckResult {
  /** One line per diagnostic in a block: `file:line:column TScode message`. */
  diagnostics: string[];
  program: ts.Program;
}

/**
 * Type-checks the files together, in one Program, with `nestjs-mcp` resolved to
 * `lib/index.ts`. Only the blocks are reported, not the library.
 */
export function typeCheck(files: DocSourceFile[], base: ts.CompilerOptions): TypeCheckResult {
  const options: ts.CompilerOptions = {
    ...base,
    noEmit: true,
    rootDir: undefined,
    outDir: undefined,
    declaration: false,
    sourceMap: false,
    paths: { ...base.paths, 'nestjs-mcp': [join(REPO_ROOT, 'lib/index.ts')] },
  };
  const byPath = new Map(files.map((file) => [file.path, file]));
  const virtualText = (path: string): string | undefined => {
    const file = byPath.get(path);
    if (file) return file.code;
    return basename(path) === 'app.module.ts' ? APP_MODULE_STUB : undefined;
  };

  const host = ts.createCompilerHost(options, true);
  const { getSourceFile } = host;
  host.fileExists = (path) =>
    isVirtual(path) ? virtualText(path) !== undefined : ts.sys.fileExists(path);
  host.readFile = (path) => (isVirtual(path) ? virtualText(path) : ts.sys.readFile(path));
  host.directoryExists = (path) =>
    isVirtual(path) ? true : (ts.sys.directoryExists?.(path) ?? existsSync(path));
  host.getSourceFile = (path, languageVersion, onError, shouldCreate) => {
    if (!isVirtual(path))
      return getSourceFile.call(host, path, languageVersion, onError, shouldCreate);
    const text = virtualText(path);
    return text === undefined ? undefined : ts.createSourceFile(path, text, languageVersion, true);
  };

  const program = ts.createProgram({ rootNames: [...byPath.keys()], options, host });
  const diagnostics: ts.Diagnostic[] = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  // Only the blocks are under test: the library is checked by `npm run typecheck`, and
  // checking it here again would cost seconds.
  for (const file of files) {
    const source = program.getSourceFile(file.path);
    if (!source) continue;
    diagnostics.push(
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    );
  }
  const messages = diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file ? byPath.get(diagnostic.file.fileName) : undefined;
    if (!diagnostic.file || !file || diagnostic.start === undefined) {
      return `(compiler options) TS${diagnostic.code} ${text}`;
    }
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${file.origin.file}:${file.origin.line + line}:${character + 1} TS${diagnostic.code} ${text}`;
  });
  return { diagnostics: messages, program };
}

/** Reads a repository file, for blocks that must match one verbatim. */
export function repositoryFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}
