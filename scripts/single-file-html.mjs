// Turns an HTML template and its TypeScript into one self-contained HTML file: an MCP Apps view
// (docs/apps.md#building-a-single-file-view), whose CSP allows no network by default, so nothing
// may be loaded from elsewhere. scripts/build-sample.mjs builds the sample's views with it
// (buildViews), and the browser test its host page (test/browser/).
//
// In the template, `<!-- script: file.ts -->` (a path relative to the template) becomes a
// `<script>` holding that file bundled with its imports by vite: one IIFE, minified, a classic
// script, so it runs from `srcdoc` and needs no module loader.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'vite';

const MARKER = /<!-- script: (\S+) -->/g;

/** Bundles a browser entry point and everything it imports into the code of one classic script. */
export async function bundleScript(entry) {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    root: dirname(entry),
    publicDir: false,
    // Libraries read it to drop their development checks, as an app bundler would set it.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      reportCompressedSize: false,
      lib: { entry, formats: ['iife'], name: 'view', fileName: () => 'view.js' },
    },
  });
  const chunks = [result]
    .flat()
    .flatMap((output) => output.output)
    .filter((file) => file.type === 'chunk');
  if (chunks.length !== 1) {
    throw new Error(`${entry} bundled into ${chunks.length} chunks, expected one`);
  }
  return chunks[0].code;
}

/** The template with each script marker replaced by its bundled code. */
export async function singleFileHtml(template) {
  const html = readFileSync(template, 'utf8');
  const markers = [...html.matchAll(MARKER)];
  if (markers.length === 0) throw new Error(`${template} has no <!-- script: file.ts --> marker`);
  let out = html;
  for (const [marker, file] of markers) {
    const code = await bundleScript(resolve(dirname(template), file));
    // `</script` inside the code would end the element early; `<\/` means the same in JS.
    const safe = code.replace(/<\/script/gi, '<\\/script');
    out = out.replace(marker, () => `<script>\n${safe}</script>`);
  }
  return out;
}

/**
 * Builds each `<name>/<name>.html` of `from` (with its scripts) into the single file
 * `<name>.html` of `to`; a `from` that does not exist has no views to build.
 */
export async function buildViews(from, to) {
  if (!existsSync(from)) return;
  const views = readdirSync(from, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  mkdirSync(to, { recursive: true });
  for (const { name } of views) {
    writeFileSync(join(to, `${name}.html`), await singleFileHtml(join(from, name, `${name}.html`)));
  }
}
