import { readFileSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A fenced code block of a Markdown file that carries a marker: an HTML comment alone on
 * its line, before the opening fence (blank lines between them are allowed, since prettier
 * puts one there). The conventions are described in docs/README.md ("Writing docs").
 */
export interface MarkedBlock {
  /** The comment's text, trimmed: `file: src/main.ts`, `example`, `request`, `response`, ... */
  marker: string;
  /** The info string of the fence (`ts`, `sh`, `json`, ...), `''` when it has none. */
  lang: string;
  /** The block's content, without the fences, ending with a newline. */
  code: string;
  /** The 1-based line, in the Markdown file, of the block's first line of code. */
  line: number;
}

const MARKER = /^<!--\s*(.*?)\s*-->\s*$/;
const FENCE_OPEN = /^(`{3,}|~{3,})\s*([^`\s]*)/;

/** Reads a Markdown file; a relative path is taken from the repository's root. */
function readMarkdown(file: string): string {
  return readFileSync(isAbsolute(file) ? file : join(REPO_ROOT, file), 'utf8');
}

/**
 * The marked code blocks of a Markdown file, in document order. A comment that is not
 * followed by a fence (after blank lines) marks nothing; a fence without a comment is not
 * listed.
 */
export function markedBlocks(file: string): MarkedBlock[] {
  const lines = readMarkdown(file).split(/\r?\n/);
  const blocks: MarkedBlock[] = [];
  let pending: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    const fence = FENCE_OPEN.exec(text);
    if (fence) {
      const [, ticks, lang] = fence;
      const start = index + 1;
      let end = start;
      while (end < lines.length && !lines[end]!.startsWith(ticks!)) end++;
      if (pending !== undefined) {
        const body = lines.slice(start, end);
        blocks.push({
          marker: pending,
          lang: lang ?? '',
          code: body.length ? `${body.join('\n')}\n` : '',
          line: start + 1,
        });
      }
      pending = undefined;
      index = end;
      continue;
    }
    const marker = MARKER.exec(text);
    if (marker) pending = marker[1];
    else if (text.trim() !== '') pending = undefined;
  }
  return blocks;
}

/** The documentation files: README.md and every Markdown file under docs/, repo-relative. */
export function documentationFiles(): string[] {
  const docs = join(REPO_ROOT, 'docs');
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(relative(REPO_ROOT, path));
    }
  };
  walk(docs);
  return ['README.md', ...found.toSorted()];
}

/**
 * The text of a `##` section of a Markdown file (README.md by default), from its heading to
 * the next `##` heading, without the heading itself.
 */
export function readmeSection(title: string, file = 'README.md'): string {
  const lines = readMarkdown(file).split(/\r?\n/);
  const start = lines.findIndex((line) => line === `## ${title}`);
  if (start < 0) throw new Error(`${file} has no section "## ${title}"`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}
