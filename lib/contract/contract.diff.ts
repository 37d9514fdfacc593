import { escapePointer } from '../utils/json-pointer.util.js';
import { sameJson } from '../utils/value-checks.util.js';
import { DEFAULT_LOCALE, type McpContract, type ServerContract } from './mcp-contract.interface.js';
import { CONTRACT_ENTRY_SHAPES } from './server-contract.builder.js';

/**
 * One difference between two contracts. `pointer` is an RFC 6901 JSON Pointer in which the
 * entries of keyed lists are addressed by their key instead of their index: servers by
 * `server@caller` (`server@caller[locale]` for a locale other than the default), tools and
 * prompts by name, resources by URI, templates by URI template, prompt arguments by name.
 * So `/servers/catalog@reader/tools/search_products/description` names one field, and stays
 * the same when an entry is added before it.
 */
export interface ContractDifference {
  /** `reordered`: a keyed list whose entries are the same but in another order. */
  readonly kind: 'added' | 'removed' | 'changed' | 'reordered';
  readonly pointer: string;
  /** The value in the old contract (absent for `added`). */
  readonly before?: unknown;
  /** The value in the new contract (absent for `removed`). */
  readonly after?: unknown;
}

/** The token that addresses one server contract in a pointer: `catalog@reader`, `catalog@reader[de]`. */
export const serverContractKey = (contract: Pick<ServerContract, 'server' | 'caller' | 'locale'>) =>
  `${contract.server}@${contract.caller}${contract.locale === DEFAULT_LOCALE ? '' : `[${contract.locale}]`}`;

type KeyOf = (entry: unknown) => string | undefined;

const byField =
  (field: string): KeyOf =>
  (entry) => {
    const key = (entry as Record<string, unknown> | null)?.[field];
    return typeof key === 'string' ? key : undefined;
  };

const byServer: KeyOf = (entry) => {
  const { server, caller, locale } = (entry ?? {}) as Record<string, unknown>;
  return typeof server === 'string' && typeof caller === 'string' && typeof locale === 'string'
    ? serverContractKey({ server, caller, locale })
    : undefined;
};

/** Which lists are keyed, by the pointer of their parent with keyed tokens generalised to `*`. */
const KEYED_LISTS: ReadonlyMap<string, KeyOf> = new Map<string, KeyOf>([
  ['/servers', byServer],
  ...Object.entries(CONTRACT_ENTRY_SHAPES).map(
    ([list, shape]) => [`/servers/*/${list}`, byField(shape.key)] as [string, KeyOf],
  ),
  ['/servers/*/prompts/*/arguments', byField('name')],
]);

/**
 * What changed from `before` (the checked-in file) to `after` (what the app publishes now):
 * every added, removed and changed field, in the order of the contract.
 */
export function diffContracts(before: McpContract, after: McpContract): ContractDifference[] {
  const differences: ContractDifference[] = [];
  compare(before, after, '', '', differences);
  return differences;
}

function compare(
  before: unknown,
  after: unknown,
  pointer: string,
  shape: string,
  out: ContractDifference[],
): void {
  if (Array.isArray(before) && Array.isArray(after)) {
    const keyOf = KEYED_LISTS.get(shape);
    if (keyOf && compareKeyed(before, after, keyOf, pointer, shape, out)) return;
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) {
      compare(before[i], after[i], `${pointer}/${i}`, `${shape}/*`, out);
    }
    for (let i = common; i < after.length; i++) {
      out.push({ kind: 'added', pointer: `${pointer}/${i}`, after: after[i] });
    }
    for (let i = common; i < before.length; i++) {
      out.push({ kind: 'removed', pointer: `${pointer}/${i}`, before: before[i] });
    }
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      const child = `${pointer}/${escapePointer(key)}`;
      if (!(key in after)) out.push({ kind: 'removed', pointer: child, before: before[key] });
      else compare(before[key], after[key], child, `${shape}/${key}`, out);
    }
    for (const key of Object.keys(after)) {
      if (!(key in before)) {
        out.push({ kind: 'added', pointer: `${pointer}/${escapePointer(key)}`, after: after[key] });
      }
    }
    return;
  }
  if (!sameJson(before, after)) out.push({ kind: 'changed', pointer, before, after });
}

/**
 * Compares two keyed lists entry by entry; false when a list has an entry without a key, or
 * a key twice (a hand-edited file), so that the caller compares by index instead.
 */
function compareKeyed(
  before: readonly unknown[],
  after: readonly unknown[],
  keyOf: KeyOf,
  pointer: string,
  shape: string,
  out: ContractDifference[],
): boolean {
  const beforeKeys = keysOf(before, keyOf);
  const afterKeys = keysOf(after, keyOf);
  if (!beforeKeys || !afterKeys) return false;
  const afterByKey = new Map(afterKeys.map((key, i) => [key, after[i]]));
  const beforeByKey = new Map(beforeKeys.map((key, i) => [key, before[i]]));
  beforeKeys.forEach((key, i) => {
    const child = `${pointer}/${escapePointer(key)}`;
    if (!afterByKey.has(key)) out.push({ kind: 'removed', pointer: child, before: before[i] });
    else compare(before[i], afterByKey.get(key), child, `${shape}/*`, out);
  });
  afterKeys.forEach((key, i) => {
    if (!beforeByKey.has(key)) {
      out.push({ kind: 'added', pointer: `${pointer}/${escapePointer(key)}`, after: after[i] });
    }
  });
  const keptBefore = beforeKeys.filter((key) => afterByKey.has(key));
  const keptAfter = afterKeys.filter((key) => beforeByKey.has(key));
  if (!sameJson(keptBefore, keptAfter)) {
    out.push({ kind: 'reordered', pointer, before: keptBefore, after: keptAfter });
  }
  return true;
}

function keysOf(list: readonly unknown[], keyOf: KeyOf): string[] | undefined {
  const keys = new Set<string>();
  for (const entry of list) {
    const key = keyOf(entry);
    if (key === undefined || keys.has(key)) return undefined;
    keys.add(key);
  }
  return [...keys];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
