import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { before, vitePlugin } from 'nestjs-mcp/plugin';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../transports/stdio/stdio-process.js';
import { captureLogs } from '../support/captured-logs.js';
import {
  buildFixtures,
  FIXTURES_DIR,
  importFixture,
  outputDir,
  removeOutput,
} from './fixture-compiler.js';

const run = promisify(execFile);
const logs = captureLogs();

/** A user's vitest config with the plugin, and 'nestjs-mcp' resolved to lib/ as here. */
const config = (dir: string) => `
import { defineConfig } from 'vitest/config';
import { vitePlugin as mcpDocblocks } from ${JSON.stringify(join(ROOT, 'lib/plugin/index.ts'))};

export default defineConfig({
  plugins: [mcpDocblocks()],
  resolve: {
    alias: [
      { find: /^nestjs-mcp\\/testing$/, replacement: ${JSON.stringify(join(ROOT, 'lib/testing/index.ts'))} },
      { find: /^nestjs-mcp$/, replacement: ${JSON.stringify(join(ROOT, 'lib/index.ts'))} },
    ],
  },
  test: {
    root: ${JSON.stringify(dir)},
    include: ['*.spec.ts'],
    setupFiles: ['reflect-metadata'],
  },
});
`;

/** A user's test: the fixture's sources, compiled by vitest, listed by a real client. */
const SPEC = `
import { writeFileSync } from 'node:fs';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import { it } from 'vitest';
import { DocblockAppModule } from ${JSON.stringify(join(FIXTURES_DIR, 'docblock-catalog.fixture.js'))};

it('lists the tools', async () => {
  const moduleRef = await Test.createTestingModule({ imports: [DocblockAppModule] }).compile();
  const app = await moduleRef.createNestApplication({ logger: false }).init();
  const mcp = await McpTestClient.connect(app);
  const { tools } = (await mcp.listTools().assertOk()).result;
  writeFileSync('tools.json', JSON.stringify(tools));
  await mcp.close();
  await app.close();
});
`;

// The nested vitest is a run of its own, not a worker of this one.
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')),
);

async function listTools(fixture: Record<string, any>) {
  const moduleRef = await Test.createTestingModule({ imports: [fixture.DocblockAppModule] })
    .setLogger(logs)
    .compile();
  const app: INestApplication = await moduleRef.createNestApplication({ logger: logs }).init();
  const mcp = await McpTestClient.connect(app);
  try {
    return (await mcp.listTools().assertOk()).result!.tools;
  } finally {
    await mcp.close();
    await app.close();
  }
}

describe('nestjs-mcp/plugin vitePlugin() under vitest', () => {
  let dir: string;
  let built: string;

  beforeAll(() => {
    dir = outputDir('vitest-app');
    built = outputDir('vitest-reference');
  });

  afterAll(() => {
    removeOutput(dir);
    removeOutput(built);
  });

  it('lists in a vitest run what a build with before() lists', async () => {
    writeFileSync(join(dir, 'vitest.config.ts'), config(dir));
    writeFileSync(join(dir, 'tools.spec.ts'), SPEC);
    await run(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.ts'],
      { cwd: dir, env: ENV },
    );
    const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8'));
    buildFixtures(built, (program) => before({}, program));
    expect(tools).toEqual(await listTools(await importFixture(built)));
    expect(tools.find((tool: { name: string }) => tool.name === 'search_products')).toHaveProperty(
      'description',
    );
  }, 120_000);

  it('keeps every line where it was, and leaves other files alone', () => {
    const source = [
      "import { McpTool } from 'nestjs-mcp';",
      'export class A {',
      '  /** Runs. */',
      '  @McpTool() run() {}',
      '}',
      'const x = 1;',
    ].join('\n');
    const plugin = vitePlugin();
    const result = plugin.transform(source, '/app/src/a.service.ts?v=1');
    expect(result?.code.split('\n')).toEqual([
      ...source.split('\n').slice(0, 4),
      ' static _MCP_DOCBLOCK_METADATA() { return {"methods":{"run":{"description":"Runs."}}}; } }',
      'const x = 1;',
    ]);
    expect(plugin.transform(source, '/app/node_modules/lib/a.ts')).toBeUndefined();
    expect(plugin.transform(source, '/app/src/a.js')).toBeUndefined();
    expect(plugin.transform('export class B {}', '/app/src/b.ts')).toBeUndefined();
  });
});
