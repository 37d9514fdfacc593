import { compileUriPattern, type UriCapture, type UriPattern } from './uri-pattern.compiler.js';

/**
 * Two expressions of a template whose values a URI cannot tell apart: nothing separates
 * them, or only text that can be part of a value of each (`{name}.{ext}` read from `a.b.c`:
 * `a` and `b.c`, or `a.b` and `c`). Matching takes, as the MCP SDK does, the longest value
 * for the first.
 */
export interface UriTemplateAmbiguity {
  /** The two expressions, as the template writes them. */
  readonly first: string;
  readonly second: string;
  /**
   * What separates their values in a URI: literal text, an operator's (`{.ext}`: `.`), and
   * the expressions between them when they are not neighbours.
   */
  readonly separator: string;
}

/**
 * What RFC 6570 expansion writes (section 3.2): `encodeURIComponent`'s characters for a
 * simple, label, path or query value, `encodeURI`'s for a reserved (`+`) or fragment (`#`)
 * one, `%` and hex digits for the escapes of the others; lists are joined with `,` (or, for
 * `{.a*}` and `{/a*}`, with `.` and `/`).
 */
const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()%";
const RESERVED = `${UNRESERVED};,/?:@&=+$#`;

function writes(capture: UriCapture): string {
  if (capture.operator === '+' || capture.operator === '#') return RESERVED;
  if (!capture.exploded) return UNRESERVED;
  return `${UNRESERVED},${capture.operator === '.' || capture.operator === '/' ? capture.operator : ''}`;
}

/**
 * Whether some URI the template expands to can be read with `character` in the value of
 * `capture`: the matcher lets the value contain it, and the expansion of some value of the
 * template writes it. (A character no value writes is in a URI only where the template's
 * literal text puts it, so no reading can move it into a value.)
 */
type MayContain = (capture: UriCapture, character: string) => boolean;

function mayContainIn(pattern: UriPattern): MayContain {
  const written = new Set(pattern.captures.flatMap((capture) => [...writes(capture)]));
  return (capture, character) =>
    written.has(character) &&
    (capture.allows(character.charCodeAt(0)) || (capture.kind === 'list' && character === ','));
}

/**
 * The expressions of `pattern` that a URI it expands to may not tell apart. A value's end is
 * certain when the text after it has a character the value cannot contain ("closed on the
 * right"), its start when the text before it has one ("closed on the left"). Every value is
 * certain, and the template unambiguous, when the values closed on the right come first and
 * those closed on the left last, with at most one value between them: read from the start up
 * to it, and from the end back to it (`{+path}/{file}`: `file` starts after the last `/`).
 * Else each value not closed on the right, with the next one after it not closed on the left,
 * is an ambiguity (`{name}.{ext}`, `{a}{b}`; `{+a}/{b}/{+c}`, where `/{b}/` may slide).
 */
export function ambiguitiesOf(pattern: UriPattern): UriTemplateAmbiguity[] {
  const { captures } = pattern;
  return ambiguousPairs(pattern).map(([first, second]) => ({
    first: captures[first]!.expression,
    second: captures[second]!.expression,
    separator: captures
      .slice(first, second)
      .map((capture, index) => (index === 0 ? '' : capture.expression) + capture.after)
      .join(''),
  }));
}

/** The indices of the captures {@link ambiguitiesOf} names. */
function ambiguousPairs(pattern: UriPattern): Array<[number, number]> {
  const mayContain = mayContainIn(pattern);
  const { captures } = pattern;
  const closedBy = (capture: UriCapture, text: string) =>
    [...text].some((character) => !mayContain(capture, character));
  const pairs: Array<[number, number]> = [];
  for (let first = 0; first + 1 < captures.length; first++) {
    if (closedBy(captures[first]!, captures[first]!.after)) continue;
    let second = first + 1;
    while (second < captures.length && closedBy(captures[second]!, captures[second - 1]!.after)) {
      second++;
    }
    if (second < captures.length) pairs.push([first, second]);
  }
  return pairs;
}

/**
 * `pattern`'s template with a `/` instead of the text between each two neighbouring
 * expressions it cannot tell apart (`files://{name}.{ext}` → `files://{name}/{ext}`), when
 * that makes it unambiguous; else `undefined` (both may contain `/`, as `{+a}` does, or the
 * two are not neighbours).
 */
export function separatedTemplate(pattern: UriPattern): string | undefined {
  const { template, captures } = pattern;
  const pairs = ambiguousPairs(pattern);
  if (pairs.length === 0) return undefined;
  let fixed = '';
  let copied = 0;
  for (const [first, second] of pairs) {
    const [left, right] = [captures[first]!, captures[second]!];
    // Not neighbours, or two variables of one expression (`{?a,b}`): no place for a `/`.
    if (second !== first + 1 || right.start < left.end) return undefined;
    fixed += `${template.slice(copied, left.end)}/`;
    copied = right.start;
  }
  fixed += template.slice(copied);
  try {
    return ambiguitiesOf(compileUriPattern(fixed)).length === 0 ? fixed : undefined;
  } catch {
    return undefined;
  }
}
