import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the page, read once, with what its answer carries. */
export interface ExplorerAsset {
  readonly body: Buffer;
  readonly mediaType: string;
  readonly etag: string;
}

/** The media types of what vite writes for the page; a file of another kind is not served. */
const MEDIA_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * Where the built files may be: beside the compiled library (`dist/explorer/` →
 * `dist/explorer-ui/assets/`, as the package ships them), else, for the library's own tests
 * that run `lib/` from source, in the `dist/` that `npm run build` wrote.
 */
const CANDIDATES = ['../explorer-ui/assets/', '../../dist/explorer-ui/assets/'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);

/**
 * The page's built files (`npm run build`: vite, explorer/vite.config.ts), read once from
 * the directory and served from memory. Only the files found there are served, by their
 * exact name: a request's path is looked up, never joined to a directory.
 */
export class ExplorerAssets {
  private files?: ReadonlyMap<string, ExplorerAsset>;

  constructor(readonly directories: readonly string[] = CANDIDATES) {}

  /** The directory the files are read from; `undefined` when none has the page's script. */
  get directory(): string | undefined {
    return this.directories.find((directory) => existsSync(join(directory, 'explorer.js')));
  }

  /** The file of that name, or `undefined`. */
  get(name: string): ExplorerAsset | undefined {
    this.files ??= this.read();
    return this.files.get(name);
  }

  private read(): ReadonlyMap<string, ExplorerAsset> {
    const directory = this.directory;
    const files = new Map<string, ExplorerAsset>();
    if (directory === undefined) return files;
    for (const name of readdirSync(directory)) {
      const mediaType = MEDIA_TYPES[extname(name)];
      const path = join(directory, name);
      if (mediaType === undefined || !statSync(path).isFile()) continue;
      const body = readFileSync(path);
      const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
      files.set(name, { body, mediaType, etag });
    }
    return files;
  }
}

/** The files every explorer of the process serves (the package has one build of the page). */
export const explorerAssets = new ExplorerAssets();
