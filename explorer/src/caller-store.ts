/**
 * The callers the page knows, kept in sessionStorage only: a pasted token lives as long as the
 * tab, never in localStorage or a cookie.
 */
export interface SavedCallers {
  /** Tokens pasted or obtained by signing in, most recent last. */
  tokens: string[];
  /** The token in use; undefined for the anonymous caller. */
  current?: string;
  /** The token the sign-in returned, shown as "Signed in". */
  signedIn?: string;
  /** The language asked for; undefined for the server's default. */
  locale?: string;
}

const KEY = 'mcp-explorer:callers';

export function loadCallers(): SavedCallers {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Partial<SavedCallers>;
    return { ...saved, tokens: Array.isArray(saved.tokens) ? saved.tokens : [] };
  } catch {
    return { tokens: [] };
  }
}

export function saveCallers(callers: SavedCallers): void {
  sessionStorage.setItem(KEY, JSON.stringify(callers));
}

/**
 * The tokens as the page names them: their last 4 characters, never the whole secret, with a
 * number when two end alike (`…oken`, `…oken (2)`); the signed-in one says so.
 */
export function tokenLabels(callers: SavedCallers): string[] {
  const seen = new Map<string, number>();
  return callers.tokens.map((token) => {
    const tail = `…${token.slice(-4)}`;
    const count = (seen.get(tail) ?? 0) + 1;
    seen.set(tail, count);
    const label = count > 1 ? `${tail} (${count})` : tail;
    return token === callers.signedIn ? `Signed in ${label}` : label;
  });
}
