/**
 * The Damerau-Levenshtein distance (optimal string alignment) between two strings: how many
 * insertions, deletions, substitutions or swaps of two neighbouring characters turn one
 * into the other. A swap counts as one edit, since `gaurds` for `guards` is the typical typo.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the matrix are enough: a swap looks back two rows.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, beforePrevious[j - 2] + 1);
      }
      current.push(distance);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * How far a name may be from a candidate and still be taken for a typo of it: about a
 * third of the name's length, at least one edit. Beyond that a guess would mislead more
 * often than help (`host` is not `path`, although only four edits apart).
 */
export const maxTypoDistance = (name: string): number => Math.max(1, Math.floor(name.length / 3));

/**
 * The candidate the name is most likely a typo of, or `undefined` when none is close
 * enough. Letter case is ignored (`pagesize` finds `pageSize`); on a tie the first
 * candidate wins.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= maxTypoDistance(name) && (best === undefined || distance < best.distance)) {
      best = { candidate, distance };
    }
  }
  return best?.candidate;
}
