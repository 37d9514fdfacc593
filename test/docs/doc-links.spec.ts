/**
 * The links of README.md and docs/*.md lead somewhere: every relative link names a file
 * of the repository, and every `#anchor` a heading of its page (GitHub's slugs). Also the
 * shape issue 11 asks of the README: at most 450 lines, a table of contents that lists
 * every section, a quick start of at most 60 lines, and every docs page reachable from it
 * (through docs/README.md, the index, which links to every page). And a ten-minute read: at
 * most 2,000 words (as `wc -w` counts them), no table line over 120 characters, and no copy
 * of the index.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, readmeSection, REPO_ROOT } from '../support/readme-blocks.js';

/** Written by the lead alongside this work; linked before it exists. */
const PENDING = new Set(['docs/architecture.md']);

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** The text outside fenced code blocks and code spans, where links are links. */
function prose(markdown: string): string {
  return markdown
    .replaceAll(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replaceAll(/`[^`\n]*`/g, (span) => (span.includes('](') ? '' : span));
}

/** GitHub's anchors of a page's headings (`## The \`http\` options` → `the-http-options`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const text = markdown.replaceAll(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .replaceAll(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replaceAll(/[^\p{L}\p{N}\s_-]/gu, '')
      .replaceAll(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count ? `${slug}-${count}` : slug);
  }
  return result;
}

interface Link {
  file: string;
  target: string;
}

function links(file: string): Link[] {
  return [...prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => ({ file, target: match[1]! }))
    .filter(({ target }) => !/^[a-z]+:/i.test(target));
}

const files = documentationFiles();

describe('the links of README.md and docs/', () => {
  it.each(files)('%s links to files and headings that exist', (file) => {
    const broken: string[] = [];
    for (const { target } of links(file)) {
      const [path = '', anchor] = target.split('#');
      const linked = path
        ? normalize(relative(REPO_ROOT, join(REPO_ROOT, dirname(file), path)))
        : file;
      if (!existsSync(join(REPO_ROOT, linked))) {
        if (!PENDING.has(linked)) broken.push(`${target}: no file ${linked}`);
        continue;
      }
      if (anchor !== undefined && linked.endsWith('.md') && !anchors(read(linked)).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${linked}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Cells of a table row: split at `|` not escaped as `\|`, without the outer empty cells. */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/);

describe('the tables of README.md and docs/', () => {
  // A blank line inside a table ends it, and GitHub renders the rows after it as a paragraph.
  it.each(files)('%s has tables that render as tables', (file) => {
    const lines = prose(read(file)).split('\n');
    const problems: string[] = [];
    let columns = 0;
    lines.forEach((line, index) => {
      if (!line.startsWith('|')) return (columns = 0);
      if (columns === 0) {
        const separator = lines[index + 1] ?? '';
        if (!/^\|(\s*:?-+:?\s*\|)+\s*$/.test(separator)) {
          problems.push(`a row without a header before it: ${line.slice(0, 60)}`);
        }
        columns = cells(line).length;
      } else if (cells(line).length !== columns) {
        problems.push(`${cells(line).length} cells instead of ${columns}: ${line.slice(0, 60)}`);
      }
      return columns;
    });
    expect(problems).toEqual([]);
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('has at most 450 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(450);
  });

  it('lists every section in its table of contents', () => {
    const contents = readmeSection('Contents');
    const sections = [...readme.matchAll(/^## (.+)$/gm)]
      .map((match) => match[1]!)
      .filter((title) => title !== 'Contents');
    const listed = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]);
    for (const title of sections) {
      expect(listed, title).toContain([...anchors(`## ${title}`)][0]);
    }
  });

  it('has a quick start of at most 60 lines', () => {
    expect(readmeSection('Quick start').trim().split('\n').length).toBeLessThanOrEqual(60);
  });

  it('links to the index of docs/ and to the reference', () => {
    const linked = new Set(links('README.md').map(({ target }) => target.split('#')[0]));
    expect([...linked]).toEqual(expect.arrayContaining(['docs/README.md', 'docs/reference.md']));
  });

  it('has at most 2,000 words', () => {
    // What `wc -w README.md` counts: runs of characters between whitespace.
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(2000);
  });

  it('has no table line over 120 characters', () => {
    const long = prose(readme)
      .split('\n')
      .filter((line) => line.startsWith('|') && [...line].length > 120);
    expect(long.map((line) => `${[...line].length}: ${line.slice(0, 60)}`)).toEqual([]);
  });

  it('does not repeat the index of docs/', () => {
    // The index's table: one row per page, with what the page covers.
    const covers = read('docs/README.md')
      .split('\n')
      .filter((line) => /^\| \[[^\]]+\]\([\w-]+\.md\)/.test(line))
      .map((line) => cells(line)[1]!.trim());
    expect(covers.length).toBeGreaterThan(10);
    expect(covers.filter((text) => readme.includes(text))).toEqual([]);
  });
});

describe('the index of docs/ (docs/README.md)', () => {
  it('links to every other page of docs/', () => {
    const linked = new Set(
      links('docs/README.md').map(({ target }) => normalize(join('docs', target.split('#')[0]!))),
    );
    const pages = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
