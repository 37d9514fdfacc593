// What the explorer's server side sends, read without a browser: its CSP, its config, the
// weight of its assets.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The page's JS and CSS, gzipped, may weigh this much at most (issue 30). */
export const WEIGHT_BUDGET_BYTES = 150 * 1024;

/** Where `vite build -c explorer/vite.config.ts` writes the page (npm run build runs it). */
export const ASSETS_DIR = fileURLToPath(
  new URL('../../../../dist/explorer-ui/assets/', import.meta.url),
);

/** A CSP header as `directive → sources`, so the tests compare policies, not spacing. */
export function cspDirectives(header: string | null): Record<string, string[]> {
  if (!header) throw new Error('The response has no Content-Security-Policy header');
  return Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

/** The contract's page CSP, with `connectOrigins` (the authorization servers') after 'self'. */
export function expectedPageCsp(connectOrigins: string[] = []): Record<string, string[]> {
  return {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...connectOrigins],
    'frame-src': ["'self'"],
    'form-action': ["'self'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The config JSON the shell carries in `<script type="application/json" id="mcp-explorer-config">`. */
export function configOf(html: string): Record<string, any> {
  const json =
    /<script type="application\/json" id="mcp-explorer-config">([\s\S]*?)<\/script>/.exec(
      html,
    )?.[1];
  if (json === undefined) throw new Error(`The shell carries no config:\n${html}`);
  return JSON.parse(json);
}

/** gzip at level 9, as a server (or a CDN) would send the file at best. */
export const gzippedSize = (body: Buffer | string): number =>
  gzipSync(body, { level: 9 }).byteLength;

/** Each JS and CSS file of the built page with its gzipped size; fails when nothing is built. */
export function builtAssetWeights(): Record<string, number> {
  let files: string[];
  try {
    files = readdirSync(ASSETS_DIR).filter((file) => /\.(js|css)$/.test(file));
  } catch {
    files = [];
  }
  if (files.length === 0) {
    throw new Error(
      `${ASSETS_DIR} holds no built page: run "npx vite build -c explorer/vite.config.ts" (npm run build does it).`,
    );
  }
  return Object.fromEntries(
    files.map((file) => [file, gzippedSize(readFileSync(`${ASSETS_DIR}${file}`))]),
  );
}

export const total = (weights: Record<string, number>): number =>
  Object.values(weights).reduce((sum, size) => sum + size, 0);
