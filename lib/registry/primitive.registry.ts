import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { VisibilityCheck } from '../execution/visibility.factory.js';
import type { McpCall } from '../execution/mcp-call.js';
import type { DefinitionView } from '../localization/definition.localizer.js';

/** A published tool, prompt or resource: its key, what clients list, who may see it. */
export interface RegisteredPrimitive<Definition> {
  /** The name (tools, prompts), URI (resources) or URI template (templates). */
  readonly key: string;
  readonly definition: Definition;
  readonly isVisible: VisibilityCheck;
  /** Former keys that still find the entry (`get`), never listed (tool aliases). */
  readonly aliases?: readonly string[];
  /** What `@McpScopes()` requires of a caller, when the entry has it. */
  readonly scopes?: McpScopeRequirement;
}

/** One page of a list, as MCP list results carry it. */
export interface ListPage<Definition> {
  readonly items: Definition[];
  readonly nextCursor?: string;
}

/** Opaque cursors: the key the previous page ended with, base64url-encoded. */
const encodeCursor = (key: string) => Buffer.from(`k:${key}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith('k:') || encodeCursor(decoded.slice(2)) !== cursor) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor "${cursor.slice(0, 64)}": pass the nextCursor of the previous page as ` +
        `it was, or no cursor for the first page.`,
    );
  }
  return decoded.slice(2);
}

/**
 * The tools, prompts or resources of one server. Listing is a lookup of a list built
 * when the set changes (at bootstrap, or when the app adds or removes one at run time);
 * only entries with guards are checked per caller, and when none has one the same list
 * serves every request. Lists are sorted by key (the 2026-07-28 revision asks for a
 * deterministic order) and paged with opaque cursors that stay valid when entries change.
 */
export class PrimitiveRegistry<Definition, Entry extends RegisteredPrimitive<Definition>> {
  private readonly byKey = new Map<string, Entry>();
  /** What each alias finds: the entry, whose `key` is the listed name. */
  private readonly byAlias = new Map<string, Entry>();
  private ordered: readonly Entry[] = [];
  private everyoneSees?: readonly Definition[];
  /** `everyoneSees` per locale (with `i18n`), made on the first list in each. */
  private readonly everyoneSeesIn = new Map<string, readonly Definition[]>();
  private readonly listeners = new Set<() => void>();

  /** @throws Error when two entries share a key or an alias */
  constructor(entries: readonly Entry[] = []) {
    for (const entry of entries) this.insert(entry);
    this.rebuild();
  }

  /** The entry of a key, or of one of its aliases (whose `key` is the listed one). */
  get(key: string): Entry | undefined {
    return this.byKey.get(key) ?? this.byAlias.get(key);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Every entry, in the listed order. */
  entries(): readonly Entry[] {
    return this.ordered;
  }

  definitions(): Definition[] {
    return this.ordered.map((entry) => entry.definition);
  }

  /** Adds an entry; one whose key or alias is already a key or an alias is refused. */
  add(entry: Entry): void {
    this.insert(entry);
    this.changed();
  }

  /** Removes an entry (by its key, not an alias) with its aliases; `false` when there was none. */
  remove(key: string): boolean {
    const entry = this.byKey.get(key);
    if (!entry) return false;
    this.byKey.delete(key);
    for (const alias of entry.aliases ?? []) this.byAlias.delete(alias);
    this.changed();
    return true;
  }

  /** Whether every caller sees the same lists (no entry's guards decide its visibility). */
  get listedAlike(): boolean {
    return this.everyoneSees !== undefined;
  }

  /** Called after each change (for list-changed notifications). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The page of entries this caller may see, starting after `cursor`.
   * @param checkFor makes the guards' context for one entry
   * @param view the definitions in the caller's locale (`i18n`); the code's without it
   * @throws ProtocolError (-32602) for a cursor this server did not issue
   */
  async page(
    checkFor: (entry: Entry) => McpCall,
    cursor: string | undefined,
    pageSize: number,
    view?: DefinitionView<Definition>,
  ): Promise<ListPage<Definition>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const start = after === undefined ? 0 : this.ordered.findIndex((entry) => entry.key > after);
    if (start === -1) return { items: [] };
    if (this.everyoneSees && start === 0 && this.ordered.length <= pageSize) {
      // A new array each time: the SDK adds per-era fields to list results.
      return { items: [...(view ? this.everyoneSeesInLocale(view) : this.everyoneSees)] };
    }
    const items: Entry[] = [];
    let index = start;
    while (index < this.ordered.length && items.length < pageSize) {
      // Guards of one window run side by side; a caller who sees few entries gets more windows.
      const window = this.ordered.slice(index, index + pageSize - items.length);
      const visible = await Promise.all(
        window.map((entry) => !entry.isVisible.guarded || entry.isVisible(checkFor(entry))),
      );
      items.push(...window.filter((_, position) => visible[position]));
      index += window.length;
    }
    const more = index < this.ordered.length;
    return {
      items: items.map((entry) => (view ? view.localize(entry.definition) : entry.definition)),
      ...(more && items.length > 0 && { nextCursor: encodeCursor(items.at(-1)!.key) }),
    };
  }

  private everyoneSeesInLocale(view: DefinitionView<Definition>): readonly Definition[] {
    let list = this.everyoneSeesIn.get(view.locale);
    if (!list) {
      list = this.everyoneSees!.map((definition) => view.localize(definition));
      this.everyoneSeesIn.set(view.locale, list);
    }
    return list;
  }

  private insert(entry: Entry): void {
    const owner = this.get(entry.key);
    if (owner) {
      throw new Error(
        owner.key === entry.key
          ? `"${entry.key}" is already published; remove it first.`
          : `"${entry.key}" is already an alias of "${owner.key}": names and aliases must be ` +
              `unique per server.`,
      );
    }
    for (const alias of entry.aliases ?? []) {
      const other = this.get(alias);
      if (alias !== entry.key && !other) continue;
      const taken = !other
        ? 'its own name'
        : other.key === alias
          ? `the name of "${alias}"`
          : `an alias of "${other.key}"`;
      throw new Error(
        `The alias "${alias}" of "${entry.key}" is already ${taken}: names and aliases must be ` +
          `unique per server.`,
      );
    }
    this.byKey.set(entry.key, entry);
    for (const alias of entry.aliases ?? []) this.byAlias.set(alias, entry);
  }

  private changed(): void {
    this.rebuild();
    for (const listener of this.listeners) listener();
  }

  private rebuild(): void {
    this.everyoneSeesIn.clear();
    this.ordered = [...this.byKey.values()].toSorted((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    this.everyoneSees = this.ordered.some((entry) => entry.isVisible.guarded)
      ? undefined
      : this.ordered.map((entry) => entry.definition);
  }
}
