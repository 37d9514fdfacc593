/**
 * Keeps the code of README.md and docs/*.md true: every block marked as a complete example
 * compiles, against the library's sources, with the repository's compiler options
 * (strict, nodenext, experimentalDecorators, emitDecoratorMetadata).
 *
 * The markers (an HTML comment before the block's opening fence; docs/README.md, "Writing
 * docs", says the same for writers):
 *
 * - `<!-- example -->` on a `ts` block: a complete module, imports included, compiled on
 *   its own. It may import `./app.module.js`, which then is an empty `AppModule` unless the
 *   block's folder has one. On a `json` block: it must parse.
 * - `<!-- file: src/main.ts -->`: the whole content of that file of an app. The `file:`
 *   blocks of one Markdown file form one app and are compiled together, so they import
 *   each other by relative path. `<!-- file: tsconfig.json (ESM) -->`: a variant in
 *   parentheses makes a separate app. Non-TypeScript `file:` blocks must parse as JSON
 *   when they are `json`.
 * - `<!-- verbatim: test/docs/supertest-example.e2e-spec.ts -->`: the block is that file
 *   of the repository, character for character (which then runs as a test of its own).
 * - `<!-- install -->`, `<!-- install: dev -->`: npm install lines (test/e2e of the package).
 * - `<!-- request -->` then `<!-- response -->`: a curl command and what it prints, run
 *   against the sample by documented-requests.e2e-spec.ts.
 *
 * Any other marker fails, so that a typo does not quietly switch a check off.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from 'nestjs-mcp';
import * as stdio from 'nestjs-mcp/stdio';
import * as tasks from 'nestjs-mcp/tasks';
import * as testing from 'nestjs-mcp/testing';
import {
  documentationFiles,
  markedBlocks,
  readmeSection,
  type MarkedBlock,
} from '../support/readme-blocks.js';
import {
  DOC_EXAMPLES_ROOT,
  repositoryCompilerOptions,
  repositoryFile,
  typeCheck,
  type DocSourceFile,
  type TypeCheckResult,
} from './doc-type-check.js';
import {
  documentedNames,
  optionCoverage,
  publicExports,
  subsections,
} from './documented-options.js';

const TYPESCRIPT = new Set(['ts', 'typescript']);
/** The entry points whose every export docs/reference.md lists under "More entry points". */
const ENTRY_POINTS = [
  { entry: 'nestjs-mcp/stdio', barrel: 'lib/transports/stdio/index.ts', values: stdio },
  { entry: 'nestjs-mcp/tasks', barrel: 'lib/tasks/index.ts', values: tasks },
  { entry: 'nestjs-mcp/testing', barrel: 'lib/testing/index.ts', values: testing },
];
const KNOWN_MARKER =
  /^(example|file: \S+( \([^)]+\))?|verbatim: \S+|install|install: dev|request|response)$/;

interface Located extends MarkedBlock {
  file: string;
}

const blocks: Located[] = documentationFiles().flatMap((file) =>
  markedBlocks(file).map((block) => ({ ...block, file })),
);

/** `file: src/main.ts (ESM)` → the path and the variant (the app the file belongs to). */
function fileMarker(marker: string): { path: string; variant: string } | undefined {
  const match = /^file: (\S+)(?: \(([^)]+)\))?$/.exec(marker);
  return match ? { path: match[1]!, variant: match[2] ?? 'app' } : undefined;
}

/** Where a block lives in the in-memory tree. */
function virtualPath(block: Located): string {
  const doc = block.file.replaceAll('/', '__');
  const file = fileMarker(block.marker);
  if (file) return join(DOC_EXAMPLES_ROOT, doc, file.variant.replaceAll(/\W+/g, '-'), file.path);
  return join(DOC_EXAMPLES_ROOT, doc, `line-${block.line}`, 'example.ts');
}

const where = (block: Located) => `${block.file}:${block.line}`;

/** One Program for every block, built once and shared by the tests that need it. */
const checked = (() => {
  let done: { sources: DocSourceFile[]; result: TypeCheckResult } | undefined;
  return () => {
    if (done) return done;
    const sources: DocSourceFile[] = blocks
      .filter((block) => TYPESCRIPT.has(block.lang))
      .filter((block) => block.marker === 'example' || fileMarker(block.marker))
      .map((block) => ({
        path: virtualPath(block),
        code: block.code,
        origin: { file: block.file, line: block.line },
      }));
    done = { sources, result: typeCheck(sources, repositoryCompilerOptions()) };
    return done;
  };
})();

describe('the examples of README.md and docs/', () => {
  it('finds the marked blocks', () => {
    // The quick start alone has four files; a parser that found nothing would pass below.
    expect(blocks.filter((block) => block.marker === 'example').length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.marker.startsWith('file: src/')).length).toBeGreaterThan(
      3,
    );
  });

  it('uses only known markers', () => {
    const unknown = blocks.filter((block) => !KNOWN_MARKER.test(block.marker));
    expect(unknown.map((block) => `${where(block)} <!-- ${block.marker} -->`)).toEqual([]);
  });

  it('marks only TypeScript and JSON blocks as examples', () => {
    const wrong = blocks.filter(
      (block) => block.marker === 'example' && !TYPESCRIPT.has(block.lang) && block.lang !== 'json',
    );
    expect(wrong.map((block) => `${where(block)} (${block.lang || 'no language'})`)).toEqual([]);
  });

  it('compiles every TypeScript example and file block', () => {
    const { sources, result } = checked();
    const paths = sources.map((source) => source.path);
    expect(
      paths.filter((path, index) => paths.indexOf(path) !== index),
      'two blocks, one file',
    ).toEqual([]);
    expect(result.diagnostics.join('\n'), 'every block compiles').toBe('');
    // One TypeScript program over every block of the docs and lib/: slow on a busy machine.
  }, 90_000);

  // The reference (docs/reference.md), against the interfaces it describes (read from lib/ by
  // the same Program): an option added to the code and not to the reference fails, and so does
  // an item for an option that no longer exists.
  it.each([
    { table: ['`McpModule.forRoot(options)`', '`http` options'], type: 'McpModuleOptions' },
    { table: ['`McpModule.forRootAsync(options)`'], type: 'McpModuleAsyncOptions' },
    {
      table: ['`bootstrapStdio(module, options?)`'],
      type: 'StdioBootstrapOptions',
      barrel: 'lib/transports/stdio/index.ts',
    },
    { table: ['`@McpTool(options?)`'], type: 'McpToolOptions' },
  ])('lists every key of $type in docs/reference.md', ({ table, type, barrel }) => {
    const documented = table.flatMap((heading) => documentedNames(heading));
    expect(optionCoverage(checked().result.program, type, documented, barrel)).toEqual({
      missing: [],
      unknown: [],
    });
  });

  it('names only real exports in the decorators and exports of docs/reference.md', () => {
    const exported = new Set(publicExports(checked().result.program).map((symbol) => symbol.name));
    const named = [...documentedNames('Decorators'), ...documentedNames('Other exports')]
      .map((name) => /^@?([A-Za-z_]\w*)/.exec(name)?.[1])
      .filter((name): name is string => name !== undefined && name !== 'nestjs');
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !exported.has(name))).toEqual([]);
    // ...and every value the package exports is in one of them (McpModule has its headings).
    const undocumented = Object.keys(api).filter(
      (name) => name !== 'McpModule' && !named.includes(name),
    );
    expect(undocumented).toEqual([]);
  });

  it('gives every entry point of the exports map its part of "More entry points"', () => {
    const manifest = JSON.parse(repositoryFile('package.json')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(manifest.exports)
      .filter((name) => name !== '.' && name !== './package.json')
      .map((name) => `\`nestjs-mcp${name.slice(1)}\``);
    expect(entries.length).toBeGreaterThan(3);
    expect(subsections('More entry points')).toEqual(expect.arrayContaining(entries));
  });

  it.each(ENTRY_POINTS)(
    'names only real exports of $entry in docs/reference.md, and every value it has',
    ({ entry, barrel, values }) => {
      const exported = new Set(
        publicExports(checked().result.program, barrel).map((symbol) => symbol.name),
      );
      const named = documentedNames('More entry points', `\`${entry}\``);
      expect(named.filter((name) => !exported.has(name))).toEqual([]);
      // ...and every value it exports at run time, as for nestjs-mcp above.
      expect(Object.keys(values).filter((name) => !named.includes(name))).toEqual([]);
      expect(Object.keys(values).length).toBeGreaterThan(0);
    },
  );

  it('lists in docs/schema.md exactly the known schema gaps of the code, with their direction', () => {
    const rows = readmeSection('Known gaps', 'docs/schema.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map(([, id, schema]) => ({ id: id!.replaceAll('`', ''), schema }));
    expect(rows).toEqual(testing.KNOWN_SCHEMA_GAPS.map(({ id, schema }) => ({ id, schema })));
  });

  it('writes JSON blocks that parse', () => {
    const broken = blocks
      .filter(
        (block) =>
          block.lang === 'json' && (block.marker === 'example' || fileMarker(block.marker)),
      )
      .flatMap((block) => {
        // tsconfig.json allows comments and trailing commas; everything else is strict JSON.
        if (fileMarker(block.marker)?.path.startsWith('tsconfig')) {
          const { error } = ts.parseConfigFileTextToJson('tsconfig.json', block.code);
          return error
            ? [`${where(block)}: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')}`]
            : [];
        }
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${where(block)}: ${(error as Error).message}`];
        }
      });
    expect(broken).toEqual([]);
  });

  it('copies verbatim blocks from the files they name', () => {
    const verbatim = blocks.filter((block) => block.marker.startsWith('verbatim: '));
    expect(verbatim.length).toBeGreaterThan(0);
    for (const block of verbatim) {
      const path = block.marker.slice('verbatim: '.length);
      expect(block.code, `${where(block)} is ${path}, character for character`).toBe(
        repositoryFile(path),
      );
    }
  });
});
