/**
 * The quick start of README.md works as written: its `<!-- file: src/... -->` blocks
 * compile with the `tsconfig.json (ESM)` block of docs/getting-started.md, and the app
 * they make serves its tool, called as the quick start's Inspector command line calls it,
 * on both protocol eras.
 *
 * The blocks are written to a folder inside the repository (removed afterwards), so that
 * vitest loads them as it loads the repository's own TypeScript, with `nestjs-mcp` mapped
 * to lib/index.ts. test/e2e of the packed package runs them against the built package.
 */
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS } from '../support/mcp-clients.js';
import { markedBlocks, readmeSection, REPO_ROOT } from '../support/readme-blocks.js';
import { shellWords } from './documented-request.js';
import { compilerOptionsFromBlock, DOC_EXAMPLES_ROOT, typeCheck } from './doc-type-check.js';

const appFiles = markedBlocks('README.md')
  .filter((block) => block.marker.startsWith('file: src/'))
  .map((block) => ({ ...block, path: block.marker.slice('file: '.length) }));

const esmConfig = markedBlocks('docs/getting-started.md').find(
  (block) => block.marker === 'file: tsconfig.json (ESM)',
);

/**
 * The quick start's last paragraph: the Inspector command line that calls the tool, and the
 * text it answers (`... answers `Hello, Ada!`.`).
 */
function documentedCall(): { tool: string; args: Record<string, string>; text: string } {
  const section = readmeSection('Quick start');
  const command = /`(npx @modelcontextprotocol\/inspector --cli [^`]+)`/.exec(section)?.[1];
  const text = /answers `([^`]+)`/.exec(section)?.[1];
  if (!command || !text)
    throw new Error('The quick start must end with the Inspector call and its answer');
  const words = shellWords(command);
  const valueOf = (flag: string) => words[words.indexOf(flag) + 1];
  expect(valueOf('--method')).toBe('tools/call');
  const args = Object.fromEntries(
    words
      .flatMap((word, index) => (words[index - 1] === '--tool-arg' ? [word] : []))
      .map((pair) => pair.split('=') as [string, string]),
  );
  return { tool: valueOf('--tool-name')!, args, text };
}

describe('the quick start of README.md', () => {
  it('has a main.ts, an app module, a feature module and a service', () => {
    expect(appFiles.map((file) => file.path)).toEqual(
      expect.arrayContaining(['src/main.ts', 'src/app.module.ts']),
    );
    expect(appFiles.length).toBeGreaterThanOrEqual(4);
  });

  it('compiles with the tsconfig.json for ESM of docs/getting-started.md', () => {
    expect(
      esmConfig,
      'docs/getting-started.md has a <!-- file: tsconfig.json (ESM) --> block',
    ).toBeDefined();
    const root = join(DOC_EXAMPLES_ROOT, 'quick-start');
    const options = compilerOptionsFromBlock(esmConfig!.code, root);
    const { diagnostics } = typeCheck(
      appFiles.map((file) => ({
        path: join(root, file.path),
        code: file.code,
        origin: { file: 'README.md', line: file.line },
      })),
      options,
    );
    expect(diagnostics.join('\n')).toBe('');
  });

  describe('the app it makes', () => {
    const folder = join(REPO_ROOT, 'test/docs', `.quick-start-${process.pid}`);
    let app: INestApplication;
    let url: URL;

    beforeAll(async () => {
      for (const file of appFiles) {
        mkdirSync(dirname(join(folder, file.path)), { recursive: true });
        writeFileSync(join(folder, file.path), file.code);
      }
      const module = (await import(pathToFileURL(join(folder, 'src/app.module.ts')).href)) as {
        AppModule: Type;
      };
      app = await NestFactory.create(module.AppModule, { logger: false });
      await app.listen(0, '127.0.0.1');
      url = new URL('/mcp', await app.getUrl());
    });

    afterAll(async () => {
      await app?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it.each(CLIENTS)('answers the documented call ($era)', async ({ connect }) => {
      const { tool, args, text } = documentedCall();
      const client = await connect(url);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain(tool);
        const result = await client.callTool(tool, args);
        expect(result.isError).toBeFalsy();
        expect(result.content).toEqual([{ type: 'text', text }]);
      } finally {
        await client.close();
      }
    });
  });
});
