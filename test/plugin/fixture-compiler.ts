import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/*
 * Builds the fixtures of test/plugin/fixtures/ as a user's build would: with the TypeScript
 * compiler API, the plugin as a `before` transformer or not, into a gitignored folder
 * (`.vitest-plugin/`) inside the repository, so that the compiled files still import the
 * library as 'nestjs-mcp' (vitest aliases it to lib/index.ts, as for every test).
 */

export const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE_FILES = ['docblock-catalog.dto.ts', 'docblock-catalog.fixture.ts'].map((file) =>
  join(FIXTURES_DIR, file),
);

/** A fresh output folder under `.vitest-plugin/`; remove it with {@link removeOutput}. */
export function outputDir(label: string): string {
  const dir = join(REPO_ROOT, '.vitest-plugin', `${label}-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeOutput(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The repository's compiler options (its `paths` resolve 'nestjs-mcp' for the checker). */
function compilerOptions(outDir: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(REPO_ROOT, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return {
    ...parsed.options,
    outDir,
    noEmit: false,
    declaration: false,
    sourceMap: false,
    incremental: false,
  };
}

/**
 * The fixtures in a program, as `tsc` or `nest build` would; `transformer` gives the
 * `before` transformers for the program (the plugin, in order), or there are none.
 */
export function buildFixtures(
  outDir: string,
  transformer?: (
    program: ts.Program,
  ) => ts.TransformerFactory<ts.SourceFile> | Array<ts.TransformerFactory<ts.SourceFile>>,
): ts.Program {
  const program = ts.createProgram({ rootNames: FIXTURE_FILES, options: compilerOptions(outDir) });
  const before = transformer ? [transformer(program)].flat() : [];
  for (const file of FIXTURE_FILES) {
    const sourceFile = program.getSourceFile(file)!;
    const diagnostics = ts.getPreEmitDiagnostics(program, sourceFile);
    if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, formatHost));
    // Flat, as the fixtures are: the repository's rootDir would nest them under test/plugin/.
    const writeFile: ts.WriteFileCallback = (name, text) =>
      writeFileSync(join(outDir, basename(name)), text);
    const result = program.emit(sourceFile, writeFile, undefined, false, { before });
    if (result.emitSkipped) throw new Error(ts.formatDiagnostics(result.diagnostics, formatHost));
  }
  return program;
}

/** Each fixture alone with `ts.transpileModule()`, as ts-jest with `isolatedModules` does. */
export function transpileFixtures(
  outDir: string,
  before: ts.TransformerFactory<ts.SourceFile>,
): void {
  const options = compilerOptions(outDir);
  for (const file of FIXTURE_FILES) {
    const { outputText } = ts.transpileModule(ts.sys.readFile(file)!, {
      // ESM output, as ts-jest's ESM mode gives (the package and the fixtures are ESM).
      compilerOptions: {
        ...options,
        isolatedModules: true,
        module: ts.ModuleKind.ES2022,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      },
      fileName: file,
      transformers: { before: [before] },
    });
    writeFileSync(join(outDir, basename(file).replace(/\.ts$/, '.js')), outputText);
  }
}

/** The compiled app fixture, imported through vitest (so 'nestjs-mcp' is lib/). */
export async function importFixture(outDir: string): Promise<Record<string, any>> {
  return import(pathToFileURL(join(outDir, 'docblock-catalog.fixture.js')).href);
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => REPO_ROOT,
  getNewLine: () => '\n',
};
