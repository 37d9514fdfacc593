import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository (and ignored by git as `.vitest-*`): `nestjs-mcp` resolves to the package itself. */
const OUT = join(ROOT, '.vitest-node-test');
const SOURCES = [
  'test/testing/from-the-docs.node-test.ts',
  'test/testing/lending-library.fixture.ts',
];

/**
 * Node 20 runs no TypeScript: the spec and its app are compiled file by file with the
 * repository's options (decorators and their metadata included) and run with `node --test`.
 * They import `nestjs-mcp` and `nestjs-mcp/testing` by name, which Node resolves through the
 * package's `exports` to dist/, the compiled library an installed package ships.
 */
function compile(): string {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  rmSync(OUT, { recursive: true, force: true });
  for (const source of SOURCES) {
    const { outputText } = ts.transpileModule(readFileSync(join(ROOT, source), 'utf8'), {
      compilerOptions: {
        ...options,
        module: ts.ModuleKind.ESNext,
        sourceMap: false,
        declaration: false,
      },
      fileName: source,
    });
    const target = join(OUT, source.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  return join(OUT, SOURCES[0]!.replace(/\.ts$/, '.js'));
}

/** When dist/ has the compiled file of a lib/ file, -1 when it has none. */
const builtAt = (file: string): number => {
  try {
    return statSync(join(ROOT, 'dist', file.replace(/^lib\//, '').replace(/\.ts$/, '.js'))).mtimeMs;
  } catch {
    return -1;
  }
};

/** The kit in dist/ must be the kit of lib/: a stale build would test old code. */
function staleBuild(): string[] {
  const kit = readdirSync(join(ROOT, 'lib/testing')).map((name) => `lib/testing/${name}`);
  return kit.filter((file) => builtAt(file) < statSync(join(ROOT, file)).mtimeMs);
}

describe('the spec written from docs/testing.md, under node:test', () => {
  it('passes on both eras, as two callers', async () => {
    expect(
      staleBuild(),
      'dist/ is older than lib/testing: run npx tsc -p tsconfig.build.json',
    ).toEqual([]);
    const spec = compile();
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          ['--test', '--test-reporter=tap', spec],
          { cwd: ROOT },
          (error, stdout, stderr) =>
            resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      },
    );
    const report = `${run.stdout}\n${run.stderr}`;
    expect(run.code, report).toBe(0);
    // Two eras, six tests each: every one ran and passed, none was skipped.
    expect(report).toMatch(/^# pass 12$/m);
    expect(report).toMatch(/^# fail 0$/m);
    expect(report).toMatch(/^# skipped 0$/m);
    expect(report).toContain('ok 1 - the lending library on 2026-07-28');
    expect(report).toContain('ok 2 - the lending library on 2025-11-25');
    rmSync(OUT, { recursive: true, force: true });
  });
});
