// Builds the sample (tsconfig.sample.json → dist-sample/) with the nestjs-mcp/plugin compiler
// plugin, so that the docblocks of its tools and DTO properties become their descriptions.
// `tsc` cannot run a transformer by itself; this is the programmatic build that
// docs/publishing-apis.md describes: the compiler API, with the plugin's `before()`.
//
//   node scripts/build-sample.mjs                      (what `npm run build:sample` runs)
//   node scripts/build-sample.mjs -p tsconfig.x.json   another tsconfig
//
// The plugin is the built library's (dist/plugin/, `npm run build` first), loaded by the
// package's own name as an app would load it. The translation files (`*.yaml`, docs/i18n.md)
// are copied beside the compiled files, where the sample looks for them at run time.
// The MCP Apps views (sample/views/<name>/<name>.html and its TypeScript, docs/apps.md) become
// one self-contained HTML file each, dist-sample/views/<name>.html, which app.module.ts names.
import { cpSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { buildViews } from './single-file-html.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const flag = process.argv.indexOf('-p');
const project = resolve(ROOT, flag === -1 ? 'tsconfig.sample.json' : process.argv[flag + 1]);

let plugin;
try {
  plugin = await import('nestjs-mcp/plugin');
} catch (error) {
  console.error(
    `Cannot load nestjs-mcp/plugin (${error.message}); run "npm run build" first, it builds dist/plugin/.`,
  );
  process.exit(1);
}

const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]),
};
const config = ts.getParsedCommandLineOfConfigFile(project, undefined, host);
if (!config) process.exit(1);

const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
  configFileParsingDiagnostics: config.errors,
});
const emitted = program.emit(undefined, undefined, undefined, false, {
  before: [plugin.before({}, program)],
});
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
report(diagnostics);
if (emitted.emitSkipped || diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) {
  process.exit(1);
}
const sources = config.options.rootDir ?? dirname(project);
copyAssets(sources, config.options.outDir);
if (config.options.outDir) {
  await buildViews(join(sources, 'views'), join(config.options.outDir, 'views'));
}

/** Copies what tsc does not emit, the YAML translation files, from `from` to the same paths in `to`. */
function copyAssets(from, to) {
  if (!to) return;
  const files = readdirSync(from, { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => name.endsWith('.yaml'))) {
    cpSync(join(from, file), join(to, file));
  }
}

/** Prints diagnostics as `tsc --pretty` does. */
function report(list) {
  if (list.length === 0) return;
  const format = process.stderr.isTTY
    ? ts.formatDiagnosticsWithColorAndContext
    : ts.formatDiagnostics;
  process.stderr.write(
    format(list, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    }),
  );
}
