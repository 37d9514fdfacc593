import {
  ANONYMOUS_CALLER,
  CONTRACT_VERSION,
  DEFAULT_LOCALE,
  type ContractEntry,
  type ContractLabels,
  type ContractLister,
  type ContractListMethod,
  type McpContract,
  type ServerContract,
} from './mcp-contract.interface.js';

/** How the contract records one kind of entry. */
interface EntryShape {
  readonly method: ContractListMethod;
  /** The field that names an entry: the lists are sorted by it, diffs address entries by it. */
  readonly key: string;
  /**
   * The published fields the contract records, and only these: the format is fixed by
   * `contractVersion`, so a field a later SDK adds to every entry does not change every file.
   */
  readonly fields: readonly string[];
}

/**
 * The four lists, with what each records. Left out as volatile: `nextCursor` and the list
 * result's own `_meta`, `ttlMs` and `cacheScope` (they belong to one response, and pages are
 * joined), a resource's `size` and `annotations.lastModified` (they follow the content, not
 * the contract), and in an entry's `_meta` the keys the protocol or tracing writes.
 */
export const CONTRACT_ENTRY_SHAPES = {
  tools: {
    method: 'tools/list',
    key: 'name',
    fields: [
      'title',
      'description',
      'inputSchema',
      'outputSchema',
      'annotations',
      'icons',
      // Not `execution`: only the 2025-11-25 list has it (`taskSupport`), and a contract is
      // the same whichever revision lists it.
      '_meta',
    ],
  },
  prompts: {
    method: 'prompts/list',
    key: 'name',
    fields: ['title', 'description', 'arguments', 'icons', '_meta'],
  },
  resources: {
    method: 'resources/list',
    key: 'uri',
    fields: ['name', 'title', 'description', 'mimeType', 'annotations', 'icons', '_meta'],
  },
  resourceTemplates: {
    method: 'resources/templates/list',
    key: 'uriTemplate',
    fields: ['name', 'title', 'description', 'mimeType', 'annotations', 'icons', '_meta'],
  },
} as const satisfies Record<string, EntryShape>;

export type ContractListName = keyof typeof CONTRACT_ENTRY_SHAPES;

const LIST_NAMES = Object.keys(CONTRACT_ENTRY_SHAPES) as ContractListName[];

/** Annotation fields that change with the content rather than with the code. */
const VOLATILE_ANNOTATIONS = new Set(['lastModified']);

/**
 * `_meta` keys that are not the author's: the protocol's own (`io.modelcontextprotocol/…`,
 * per request in 2026-07-28) and W3C trace context, which differs on every request.
 */
const isVolatileMetaKey = (key: string): boolean =>
  key.startsWith('io.modelcontextprotocol/') ||
  key === 'traceparent' ||
  key === 'tracestate' ||
  key === 'baggage';

/**
 * What one server publishes to one caller in one locale: its tools, prompts, resources and
 * resource templates, each list sorted by its key, every object's keys sorted (the entry's
 * key first), volatile fields left out. Texts (titles, descriptions, schemas) are kept
 * exactly as published.
 */
export async function describeServerContract(
  lister: ContractLister,
  labels: ContractLabels,
): Promise<ServerContract> {
  const lists = await Promise.all(
    LIST_NAMES.map(async (list) => {
      const shape = CONTRACT_ENTRY_SHAPES[list];
      const entries = await lister.list(shape.method);
      if (!Array.isArray(entries)) {
        throw new TypeError(`The lister gave no array for ${shape.method}.`);
      }
      const recorded = entries.map((entry) => recordEntry(entry, shape));
      return [
        list,
        sortedEntries(
          list === 'tools' ? recorded.map((tool) => withLimits(tool, lister)) : recorded,
          shape.key,
        ),
      ];
    }),
  );
  return {
    server: labels.server,
    caller: labels.caller ?? ANONYMOUS_CALLER,
    locale: labels.locale ?? DEFAULT_LOCALE,
    ...(Object.fromEntries(lists) as Record<ContractListName, ContractEntry[]>),
  };
}

/** The contract file of the given server contracts, sorted by server, caller and locale. */
export function assembleContract(servers: readonly ServerContract[]): McpContract {
  const sorted = servers.toSorted((a, b) => compareTuples(labelsOf(a), labelsOf(b)));
  for (let i = 1; i < sorted.length; i++) {
    if (compareTuples(labelsOf(sorted[i - 1]!), labelsOf(sorted[i]!)) === 0) {
      throw new Error(
        `The contract has the server ${sorted[i]!.server} twice for the caller "${sorted[i]!.caller}" and the locale "${sorted[i]!.locale}": give each caller its own label.`,
      );
    }
  }
  return { contractVersion: CONTRACT_VERSION, servers: sorted };
}

const labelsOf = (contract: ServerContract) => [contract.server, contract.caller, contract.locale];

/** The contract's JSON text: two-space indents and a final newline, as formatters leave it. */
export const serializeContract = (contract: McpContract): string =>
  `${JSON.stringify(contract, null, 2)}\n`;

/**
 * A tool with its `timeoutMs` and `concurrency` when it has them: they are the server's, not
 * the list's, so the lister adds them (the fields sort among the listed ones).
 */
function withLimits(tool: ContractEntry, lister: ContractLister): ContractEntry {
  const limits = lister.toolLimits?.(tool.name as string);
  if (!limits || (limits.timeoutMs === undefined && limits.concurrency === undefined)) return tool;
  const { name, ...fields } = tool;
  return {
    name,
    ...(sortKeys({
      ...fields,
      ...(limits.timeoutMs !== undefined && { timeoutMs: limits.timeoutMs }),
      ...(limits.concurrency !== undefined && { concurrency: limits.concurrency }),
    }) as ContractEntry),
  };
}

function recordEntry(entry: Record<string, unknown>, shape: EntryShape): ContractEntry {
  const key = entry?.[shape.key];
  if (typeof key !== 'string') {
    throw new TypeError(
      `${shape.method} returned an entry without a string "${shape.key}": ${JSON.stringify(entry)}`,
    );
  }
  const recorded: Record<string, unknown> = {};
  for (const field of shape.fields.toSorted()) {
    const value = stableField(field, entry[field]);
    if (value !== undefined) recorded[field] = value;
  }
  return { [shape.key]: key, ...recorded };
}

function stableField(field: string, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (field === '_meta' && isPlainObject(value)) {
    const kept = Object.entries(value).filter(([key]) => !isVolatileMetaKey(key));
    return kept.length > 0 ? sortKeys(Object.fromEntries(kept)) : undefined;
  }
  if (field === 'annotations' && isPlainObject(value)) {
    const kept = Object.entries(value).filter(([key]) => !VOLATILE_ANNOTATIONS.has(key));
    return kept.length > 0 ? sortKeys(Object.fromEntries(kept)) : undefined;
  }
  if (field === 'arguments' && Array.isArray(value)) {
    // A prompt's arguments keep their published order (clients ask for them in that order);
    // inside each, the name comes first.
    return value.map((argument) =>
      isPlainObject(argument) && typeof argument.name === 'string'
        ? { name: argument.name, ...(sortKeys(omit(argument, 'name')) as object) }
        : sortKeys(argument),
    );
  }
  return sortKeys(value);
}

/**
 * The value with every object's keys in code-point order, at every depth. JSON objects are
 * unordered, so a reordered DTO does not change the contract; arrays keep their order
 * (`enum`, `required`, `oneOf` are published in an order that may mean something).
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).toSorted()) {
    if (value[key] !== undefined) sorted[key] = sortKeys(value[key]);
  }
  return sorted;
}

function sortedEntries(entries: ContractEntry[], key: string): ContractEntry[] {
  return entries.toSorted(
    (a, b) =>
      compareStrings(a[key] as string, b[key] as string) ||
      compareStrings(JSON.stringify(a), JSON.stringify(b)),
  );
}

// Code-point order, not localeCompare: the file must sort the same on every machine.
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareStrings(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return 0;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function omit(value: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _omitted, ...rest } = value;
  return rest;
}
