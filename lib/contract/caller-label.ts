import { createHash } from 'node:crypto';
import { ANONYMOUS_CALLER } from './mcp-contract.interface.js';

/** Headers whose value starts with an authentication scheme worth showing (`Bearer`, `Basic`). */
const SCHEMED_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** An RFC 9110 token followed by a space: the scheme of `Bearer abc`. */
const SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(.+)$/s;

/**
 * The label of a caller known only by its request headers, safe to check in: each header's
 * name with its value replaced by the first 8 hex digits of its SHA-256 (the scheme of an
 * `Authorization` header kept), names lower-cased and sorted, for example
 * `authorization: Bearer <sha256:1a2b3c4d>`. The same credentials give the same label on
 * every machine; other credentials give another one. No headers: `anonymous`.
 *
 * A short hash of a guessable token (`reader-token`) can be matched by guessing; name the
 * callers of a checked-in contract instead (`--as reader='Authorization: Bearer …'`), which
 * also keeps the file the same when a token is rotated.
 */
export function callerLabel(headers: Readonly<Record<string, unknown>> = {}): string {
  const names = Object.keys(headers)
    .filter((name) => headers[name] !== undefined)
    .toSorted((a, b) => compare(a.toLowerCase(), b.toLowerCase()));
  if (names.length === 0) return ANONYMOUS_CALLER;
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const raw = headers[name];
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      const schemed = SCHEMED_HEADERS.has(lower) ? SCHEME.exec(value) : null;
      return schemed
        ? `${lower}: ${schemed[1]} ${redact(schemed[2]!)}`
        : `${lower}: ${redact(value)}`;
    })
    .join(', ');
}

const redact = (secret: string): string =>
  `<sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 8)}>`;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
