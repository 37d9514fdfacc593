import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The explorer's page (docs/explorer.md), bundled into the package by `npm run build`:
 * `dist/explorer-ui/assets/explorer.js`, `explorer.css` and `sandbox.js`, which
 * `lib/explorer/explorer-assets.ts` serves. The names carry no hash: the server names them
 * in the page it writes, and revalidates them by their ETag (`cache-control: no-cache`).
 * Preact is bundled in; nothing is loaded from another origin.
 */
export default defineConfig({
  root: at('.'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: at('../dist/explorer-ui/assets'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    // Maps would ship the page's sources in the package twice.
    sourcemap: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { explorer: at('index.ts'), sandbox: at('sandbox.ts') },
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-chunk.js',
        assetFileNames: '[name][extname]',
      },
    },
  },
});
