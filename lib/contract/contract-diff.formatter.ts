import type { ContractDifference } from './contract.diff.js';

/** Objects and arrays longer than this are cut in the text; strings never are. */
const MAX_STRUCTURE_LENGTH = 160;

/**
 * The differences as text, one line each, for a terminal or a CI log:
 *
 * ```text
 * /servers/catalog@reader/tools/search_products/description changed: "Search" → "Find products"
 * /servers/catalog@reader/tools/export_csv added: {"name":"export_csv",…}
 * /servers/catalog@admin/prompts/summary removed: {"name":"summary",…}
 * ```
 *
 * Strings are shown whole and JSON-quoted, so that a changed description can be read in
 * full and a changed space or line break is visible.
 */
export function formatContractDiff(differences: readonly ContractDifference[]): string {
  return differences.map((difference) => `${formatDifference(difference)}\n`).join('');
}

/** `3 differences (1 added, 1 removed, 1 changed)`. */
export function summarizeContractDiff(differences: readonly ContractDifference[]): string {
  const counts = new Map<string, number>();
  for (const { kind } of differences) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, count]) => `${count} ${kind}`);
  const noun = differences.length === 1 ? 'difference' : 'differences';
  return `${differences.length} ${noun} (${parts.join(', ')})`;
}

function formatDifference({ kind, pointer, before, after }: ContractDifference): string {
  switch (kind) {
    case 'added':
      return `${pointer} added: ${show(after)}`;
    case 'removed':
      return `${pointer} removed: ${show(before)}`;
    case 'changed':
      return `${pointer} changed: ${show(before)} → ${show(after)}`;
    case 'reordered':
      return `${pointer} reordered: ${show(before)} → ${show(after)}`;
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  if (typeof value !== 'object' || value === null || text.length <= MAX_STRUCTURE_LENGTH) {
    return text;
  }
  return `${text.slice(0, MAX_STRUCTURE_LENGTH)}…`;
}
