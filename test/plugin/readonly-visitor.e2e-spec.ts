import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { before, ReadonlyVisitor } from 'nestjs-mcp/plugin';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpPluginMetadata } from '../../lib/discovery/plugin-metadata.loader.js';
import { captureLogs } from '../support/captured-logs.js';
import {
  buildFixtures,
  FIXTURES_DIR,
  importFixture,
  outputDir,
  removeOutput,
} from './fixture-compiler.js';
import { printMetadata } from './metadata-printer.js';

const logs = captureLogs();

async function listTools(fixture: Record<string, any>) {
  const moduleRef = await Test.createTestingModule({ imports: [fixture.DocblockAppModule] })
    .setLogger(logs)
    .compile();
  const app: INestApplication = await moduleRef.createNestApplication({ logger: logs }).init();
  const mcp = await McpTestClient.connect(app);
  try {
    return {
      tools: (await mcp.listTools().assertOk()).result!.tools,
      prompts: (await mcp.listPrompts().assertOk()).result!.prompts,
      resources: (await mcp.listResources().assertOk()).result!.resources,
    };
  } finally {
    await mcp.close();
    await app.close();
  }
}

/** A metadata.ts older than the code: it names a class its file has not. */
const staleMetadata = async () => ({
  'nestjs-mcp': { classes: [[Promise.resolve({}), { GoneService: { methods: {} } }]] },
});

/*
 * Builds that run no TypeScript transformer (SWC): the ReadonlyVisitor collects the
 * docblocks into metadata.ts, as `nest build -b swc --type-check` has the Nest CLI do, and
 * loadMcpPluginMetadata() attaches them before the app starts.
 */
describe('nestjs-mcp/plugin ReadonlyVisitor and loadMcpPluginMetadata()', () => {
  let swcLike: string;
  let transformed: string;

  beforeAll(() => {
    swcLike = outputDir('readonly');
    transformed = outputDir('transformed');
  });

  afterAll(() => {
    removeOutput(swcLike);
    removeOutput(transformed);
  });

  it('lists what the transformer gives, from a build without it plus metadata.ts', async () => {
    const program = buildFixtures(swcLike);
    const visitor = new ReadonlyVisitor({
      pathToSource: FIXTURES_DIR,
      esmCompatible: true,
      readonly: true,
    });
    for (const sourceFile of program.getSourceFiles()) {
      if (sourceFile.fileName.startsWith(FIXTURES_DIR)) visitor.visit(program, sourceFile);
    }
    const metadataFile = join(swcLike, 'metadata.js');
    writeFileSync(metadataFile, printMetadata([visitor]));
    const metadata = await import(pathToFileURL(metadataFile).href);
    await loadMcpPluginMetadata(metadata.default);

    buildFixtures(transformed, (compiled) => before({}, compiled));
    const expected = await listTools(await importFixture(transformed));
    expect(expected.tools.find((tool) => tool.name === 'search_products')).toHaveProperty(
      'description',
    );
    expect(await listTools(await importFixture(swcLike))).toEqual(expected);
  }, 60_000);

  it('names a class metadata.ts lists that its file no longer exports', async () => {
    await expect(loadMcpPluginMetadata(staleMetadata)).rejects.toThrow(
      'metadata.ts names the class GoneService, which its file no longer exports. ' +
        'Regenerate metadata.ts',
    );
  });

  it('needs the pathToSource option that the Nest CLI gives', () => {
    expect(() => new ReadonlyVisitor({} as never)).toThrow(/needs the "pathToSource" option/);
  });
});
