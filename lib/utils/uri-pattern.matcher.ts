import type { UriCapture, UriPattern } from './uri-pattern.compiler.js';

/** Counts the work of matches, for tests that show it grows linearly with the URI. */
export interface MatchMeter {
  /** Characters compared and table cells computed, summed over the matches it was given to. */
  steps: number;
}

/** The raw (still percent-encoded) values of a match, by variable name. */
export type RawVariables = Record<string, string | string[]>;

const COMMA = 0x2c;

/**
 * The variables of `uri` under `pattern`, or `null` when it does not match: the answer of
 * the SDK's `UriTemplate.match`, in time linear in the URI's length. (The SDK builds a
 * backtracking regular expression on every call, which takes time quadratic in the length
 * when two captures compete for the same characters: `{name}.{ext}` against a long run of
 * dots that does not match.)
 *
 * Where a template lets a URI be read more than one way, the SDK's regular expression gives
 * each capture, from the first, the longest value that still lets the rest of the URI match
 * (its backtracking tries the ends of a value from the longest down). This does the same, in
 * two passes and without backtracking:
 * 1. from the end of the URI, a table: for each capture and each position, whether that
 *    capture, the literal after it and everything after that match the URI from there to its
 *    end. Each cell follows from two or three cells already computed and one comparison of
 *    the literal after the capture.
 * 2. from the start, each capture takes the longest value the table says the rest can
 *    follow.
 * A cell costs one step plus, when the rest can follow, the length of the literal after its
 * capture; the second pass reads each capture's value at most twice, with the same literal
 * compared at each end it tries. So a match takes at most 3 × (length + 1) × (the pattern's
 * `minLength` + 1) steps, counted in `meter` (test/utils/uri-pattern.matcher.spec.ts checks
 * the bound on generated templates and URIs): linear in the URI, for every template.
 */
export function matchUriPattern(
  pattern: UriPattern,
  uri: string,
  meter?: MatchMeter,
): RawVariables | null {
  const { lead, captures } = pattern;
  if (meter) meter.steps += lead.length;
  if (uri.length < pattern.minLength || !uri.startsWith(lead)) return null;
  if (captures.length === 0) return uri.length === lead.length ? {} : null;
  const run = new PatternRun(captures, uri);
  try {
    if (!run.reaches(0, lead.length)) return null;
    const values: Array<[string, string | string[]]> = [];
    let position = lead.length;
    for (const [index, capture] of captures.entries()) {
      const end = run.longestEnd(index, position);
      const value = uri.slice(position, end);
      values.push([
        capture.name,
        capture.exploded && value.includes(',') ? value.split(',') : value,
      ]);
      position = end + capture.after.length;
    }
    return Object.fromEntries(values);
  } finally {
    if (meter) meter.steps += run.steps;
  }
}

/** One match: the URI, its table and the steps taken. */
class PatternRun {
  steps = 0;
  private readonly width: number;
  /**
   * Row `j`, cell `p` (at `j × (length + 1) + p`): 1 when captures `j...` (each followed by
   * its literal) match the URI from `p` to its end.
   */
  private readonly table: Uint8Array;

  constructor(
    private readonly captures: readonly UriCapture[],
    private readonly uri: string,
  ) {
    this.width = uri.length + 1;
    this.table = new Uint8Array(captures.length * this.width);
    this.fillTable();
  }

  reaches(j: number, position: number): boolean {
    return this.table[j * this.width + position] === 1;
  }

  /** Fills the table, from the last capture back, each row from the end of the URI. */
  private fillTable(): void {
    const { uri, captures, width, table } = this;
    const n = uri.length;
    for (let j = captures.length - 1; j >= 0; j--) {
      const { allows, kind } = captures[j]!;
      const row = j * width;
      // The cell at `n` stays 0: a capture takes one character at least.
      for (let p = n - 1; p >= 0; p--) {
        this.steps++;
        if (!allows(uri.charCodeAt(p))) continue;
        const continues =
          this.followed(j, p + 1) ||
          table[row + p + 1] === 1 ||
          (kind === 'list' && uri.charCodeAt(p + 1) === COMMA && table[row + p + 2] === 1);
        if (continues) table[row + p] = 1;
      }
    }
  }

  /** Whether capture `j` may end at `end`: its literal follows, then the rest matches. */
  private followed(j: number, end: number): boolean {
    const { after } = this.captures[j]!;
    const next = end + after.length;
    const n = this.uri.length;
    if (next > n) return false;
    const rest = j + 1 < this.captures.length ? this.reaches(j + 1, next) : next === n;
    if (!rest) return false;
    this.steps += after.length;
    return this.uri.startsWith(after, end);
  }

  /** The end of the longest value of capture `j` at `start` that the rest can follow. */
  longestEnd(j: number, start: number): number {
    const { uri } = this;
    const { allows, kind } = this.captures[j]!;
    // How far a value could reach: a run of allowed characters or, for a list, of runs
    // joined by single commas.
    let far = start;
    while (far < uri.length) {
      const code = uri.charCodeAt(far);
      const inValue =
        allows(code) || (kind === 'list' && code === COMMA && uri.charCodeAt(far - 1) !== COMMA);
      if (!inValue) break;
      far++;
      this.steps++;
    }
    for (let end = far; end > start; end--) {
      this.steps++;
      if (kind === 'list' && uri.charCodeAt(end - 1) === COMMA) continue;
      if (this.followed(j, end)) return end;
    }
    // The table marked `start`, so some end is always found.
    throw new Error(`No end for the value of "${this.captures[j]!.name}" at ${start}`);
  }
}
