import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';
import { FIXTURES_DIR, outputDir, removeOutput } from './fixture-compiler.js';

const run = promisify(execFile);

/*
 * `nestjs-mcp/plugin` as the tools that load it find it: through the package's `exports`
 * (dist/, which `npx tsc -p tsconfig.build.json` builds), from an app whose node_modules has
 * the package, in a plain Node process (CommonJS `require`, as the Nest CLI and ts-jest do).
 */
const LOADER = String.raw`
const { join } = require('node:path');
const ts = require('typescript');
// What the Nest CLI's PluginsLoader does with { name: 'nestjs-mcp' } of compilerOptions.plugins.
const name = 'nestjs-mcp';
const resolved = require.resolve(name + '/plugin', { paths: [join(process.cwd(), 'node_modules')] });
const plugin = require(resolved);
const program = ts.createProgram({ rootNames: [], options: {} });
const source = [
  "import { McpTool } from 'nestjs-mcp';",
  'export class Catalog {',
  '  /** Finds products. */',
  '  @McpTool() find() { return []; }',
  '}',
].join('\n');
const transpile = (transformer) =>
  ts.transpileModule(source, {
    compilerOptions: { experimentalDecorators: true, module: ts.ModuleKind.ES2022 },
    transformers: { before: [transformer] },
  }).outputText;
const emitted = transpile(plugin.before.bind(plugin.before, { })(program));
const viaTsJest = transpile(plugin.factory({ program: undefined }, {}));
const visitor = new plugin.ReadonlyVisitor({ pathToSource: process.cwd(), readonly: true });
console.log(JSON.stringify({
  resolved,
  exports: Object.keys(plugin).filter((key) => key !== '__esModule').sort(),
  types: { before: typeof plugin.before, factory: typeof plugin.factory, ReadonlyVisitor: typeof plugin.ReadonlyVisitor },
  tsJest: { name: plugin.name, version: plugin.version },
  visitorKey: visitor.key,
  emitted: /static _MCP_DOCBLOCK_METADATA\(\)[\s\S]*"Finds products\."/.test(emitted),
  sameThroughTsJest: viaTsJest === emitted,
}));
`;

/** A service of the app that the documented build script compiles. */
const SERVICE = `import { Injectable } from '@nestjs/common';
import { McpTool } from 'nestjs-mcp';

@Injectable()
export class CatalogService {
  /** Lists the categories of the catalog. */
  @McpTool()
  listCategories() {
    return ['kitchen'];
  }
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

const READ_BUILT = `import 'reflect-metadata';
const { CatalogService } = await import('./dist/catalog.service.js');
console.log(JSON.stringify(CatalogService._MCP_DOCBLOCK_METADATA()));
`;

describe('nestjs-mcp/plugin through the package exports', () => {
  let app: string;

  beforeAll(() => {
    requireBuilt('dist/plugin/index.js');
    app = outputDir('plugin-app');
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(ROOT, join(app, 'node_modules', 'nestjs-mcp'), 'dir');
    writeFileSync(join(app, 'load-plugin.cjs'), LOADER);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  });

  afterAll(() => removeOutput(app));

  it('resolves as the Nest CLI resolves a plugin, with before, ReadonlyVisitor and the ts-jest protocol', async () => {
    const { stdout } = await run(process.execPath, ['load-plugin.cjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({
      resolved: join(ROOT, 'dist', 'plugin', 'index.js'),
      exports: ['ReadonlyVisitor', 'before', 'default', 'factory', 'name', 'version', 'vitePlugin'],
      types: { before: 'function', factory: 'function', ReadonlyVisitor: 'function' },
      tsJest: { name: 'nestjs-mcp-docblocks', version: 1 },
      visitorKey: 'nestjs-mcp',
      emitted: true,
      sameThroughTsJest: true,
    });
  });

  it('builds an app with the documented programmatic build script', async () => {
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'src', 'catalog.service.ts'), SERVICE);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    copyFileSync(join(FIXTURES_DIR, 'build-with-plugin.mjs'), join(app, 'build.mjs'));
    writeFileSync(join(app, 'read-built.mjs'), READ_BUILT);
    await run(process.execPath, ['build.mjs', 'tsconfig.json'], { cwd: app });
    const { stdout } = await run(process.execPath, ['read-built.mjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({
      methods: { listCategories: { description: 'Lists the categories of the catalog.' } },
    });
  });
});
