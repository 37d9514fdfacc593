import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_SCHEMA_GAPS } from '../../lib/schema/known-schema-gaps.js';

// KNOWN_SCHEMA_GAPS is the one list; docs/schema.md shows it to users, row by row.
const docs = readFileSync(new URL('../../docs/schema.md', import.meta.url), 'utf8');
const documented = [...docs.matchAll(/^\| `([a-z0-9-]+)` +\| (looser|stricter|both) +\|/gm)].map(
  ([, id, direction]) => [id, direction],
);

describe('KNOWN_SCHEMA_GAPS and docs/schema.md', () => {
  it('document every gap, once, with its direction, in the order of the code', () => {
    expect(documented).toEqual(KNOWN_SCHEMA_GAPS.map((gap) => [gap.id, gap.schema]));
  });

  it('give each gap a reason', () => {
    for (const gap of KNOWN_SCHEMA_GAPS) expect(gap.reason.length, gap.id).toBeGreaterThan(40);
  });
});
