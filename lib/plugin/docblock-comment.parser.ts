/*
 * Reads a `/** ... *\/` comment from the source text. The compiler's own JSDoc nodes are not
 * used: since TypeScript 5.3 `tsc` may skip parsing JSDoc in .ts files (`jsDocParsingMode`),
 * and transpile-only builds (ts-jest `isolatedModules`) have no parent pointers for them.
 * The text itself is always there, as `@nestjs/swagger`'s plugin also relies on.
 */

/** What one docblock says. */
export interface ParsedDocblock {
  /** The text before the first tag (summary and description), unwrapped. */
  readonly description: string;
  /** The text of each `@param` tag, by parameter name. */
  readonly params: ReadonlyMap<string, string>;
}

// `{@link Target}`, `{@link Target | text}`, `{@link Target text}` (also linkcode, linkplain).
const INLINE_LINK = /\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const FENCE = /^\s*```/;

/** The lines of a block comment without its `/**`, `*\/` and leading ` * `. */
function commentLines(comment: string): string[] {
  return comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*\* ?/, '').replace(/\s+$/, ''));
}

/**
 * Lines wrapped for the editor become one line; paragraphs, list items and fenced code keep
 * their breaks, since a model reads them as structure.
 */
function unwrap(lines: readonly string[]): string {
  const out: string[] = [];
  let fenced = false;
  for (const raw of lines) {
    const line = fenced ? raw : raw.trim();
    const previous = out.length > 0 ? out[out.length - 1] : undefined;
    if (FENCE.test(line)) {
      fenced = !fenced;
      out.push(line);
    } else if (fenced || previous === undefined || previous === '' || line === '') {
      out.push(line);
    } else if (LIST_ITEM.test(line) || FENCE.test(previous)) {
      out.push(line);
    } else {
      out[out.length - 1] = `${previous} ${line}`;
    }
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(INLINE_LINK, (_, target: string, text: string) => text.trim() || target)
    .trim();
}

/** `@param {Type} [name=default] - text` → name and text. */
function parseParamTag(body: string): [string, string] | undefined {
  const match = /^(?:\{[^}]*\}\s*)?\[?([A-Za-z_$][\w$]*)(?:=[^\]]*)?\]?(?:\s+|$)([\s\S]*)$/.exec(
    body.trim(),
  );
  if (!match) return undefined;
  const text = unwrap(match[2].replace(/^-\s*/, '').split('\n')).replace(/\s+/g, ' ');
  return text === '' ? undefined : [match[1], text];
}

/** Parses the text of one `/** ... *\/` comment. */
export function parseDocblock(comment: string): ParsedDocblock {
  const lines = commentLines(comment);
  const firstTag = lines.findIndex((line) => /^\s*@\w/.test(line));
  const descriptionLines = firstTag === -1 ? lines : lines.slice(0, firstTag);
  const tags: Array<{ name: string; body: string[] }> = [];
  for (const line of firstTag === -1 ? [] : lines.slice(firstTag)) {
    const tag = /^\s*@(\w+)\s?(.*)$/.exec(line);
    if (tag) tags.push({ name: tag[1], body: [tag[2]] });
    else tags[tags.length - 1]?.body.push(line);
  }
  const params = new Map<string, string>();
  let description = unwrap(descriptionLines);
  for (const tag of tags) {
    if (tag.name === 'param') {
      const param = parseParamTag(tag.body.join('\n'));
      if (param && !params.has(param[0])) params.set(...param);
    } else if (tag.name === 'description' && description === '') {
      description = unwrap(tag.body);
    }
  }
  return { description, params };
}
