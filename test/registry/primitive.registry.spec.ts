import { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import type { McpCall } from '../../lib/execution/mcp-call.js';
import type { VisibilityCheck } from '../../lib/execution/visibility.factory.js';
import {
  PrimitiveRegistry,
  type ListPage,
  type RegisteredPrimitive,
} from '../../lib/registry/primitive.registry.js';

interface Definition {
  name: string;
}
type Entry = RegisteredPrimitive<Definition>;

const everyone: VisibilityCheck = Object.assign(async () => true, { guarded: false });

const entry = (key: string, isVisible: VisibilityCheck = everyone): Entry => ({
  key,
  definition: { name: key },
  isVisible,
});

/** A guarded entry; `visible` says whether its guards let the caller see it. */
const guarded = (key: string, visible: boolean) => {
  const check = vi.fn(async (_call: McpCall) => visible);
  return { entry: entry(key, Object.assign(check, { guarded: true })), check };
};

const registryOf = (entries: Entry[] = []) => new PrimitiveRegistry<Definition, Entry>(entries);

const call = {} as McpCall;
const checkFor = () => call;

const names = (page: ListPage<Definition>) => page.items.map((item) => item.name);

/** Every page, following nextCursor as a client does. */
async function everyPage(registry: PrimitiveRegistry<Definition, Entry>, pageSize: number) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await registry.page(checkFor, cursor, pageSize);
    pages.push(names(page));
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 50);
  return pages;
}

const invalidCursor = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => expect.unreachable('the cursor was accepted'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(-32602);
  return (error as ProtocolError).message;
};

describe('PrimitiveRegistry', () => {
  it('lists entries sorted by key, whatever order they came in', async () => {
    const registry = registryOf([entry('b'), entry('c'), entry('a'), entry('B')]);
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['B', 'a', 'b', 'c']);
    expect(registry.entries().map((e) => e.key)).toEqual(['B', 'a', 'b', 'c']);
    expect(registry.definitions()).toEqual([
      { name: 'B' },
      { name: 'a' },
      { name: 'b' },
      { name: 'c' },
    ]);
  });

  it('looks entries up by key and counts them', () => {
    const a = entry('a');
    const registry = registryOf([a, entry('b')]);
    expect(registry.get('a')).toBe(a);
    expect(registry.get('z')).toBeUndefined();
    expect(registry.get('constructor')).toBeUndefined();
    expect(registry.size).toBe(2);
  });

  it('sends the whole list without nextCursor when it fits on one page', async () => {
    const registry = registryOf([entry('a'), entry('b')]);
    const page = await registry.page(checkFor, undefined, 2);
    expect(names(page)).toEqual(['a', 'b']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('sends a new array each time, so that changes to one result never reach the next', async () => {
    const registry = registryOf([entry('a')]);
    const first = await registry.page(checkFor, undefined, 10);
    first.items.push({ name: 'injected' });
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a']);
  });

  it('lists nothing when empty', async () => {
    const page = await registryOf().page(checkFor, undefined, 10);
    expect(page).toEqual({ items: [] });
  });

  it('pages through every entry once, in order, with opaque cursors', async () => {
    const keys = ['e', 'a', 'd', 'c', 'b', 'g', 'f'];
    const registry = registryOf(keys.map((key) => entry(key)));
    expect(await everyPage(registry, 3)).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
    const first = await registry.page(checkFor, undefined, 3);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('gives no nextCursor on the last page, even when it is full', async () => {
    const registry = registryOf(['a', 'b', 'c', 'd'].map((key) => entry(key)));
    const first = await registry.page(checkFor, undefined, 2);
    const last = await registry.page(checkFor, first.nextCursor, 2);
    expect(names(last)).toEqual(['c', 'd']);
    expect(last).not.toHaveProperty('nextCursor');
  });

  it('pages keys with any characters (URIs, unicode)', async () => {
    const keys = ['app://x/ü', 'app://x/a?b=c&d', 'app://x/💥', 'k:a'];
    const registry = registryOf(keys.map((key) => entry(key)));
    expect((await everyPage(registry, 1)).flat()).toEqual(registry.entries().map((e) => e.key));
  });

  it('treats an empty-string cursor as the first page', async () => {
    const registry = registryOf(['a', 'b', 'c'].map((key) => entry(key)));
    const page = await registry.page(checkFor, '', 2);
    expect(names(page)).toEqual(['a', 'b']);
    expect(page.nextCursor).toBeDefined();
  });

  it('keeps a cursor valid when entries are added or removed, neither skipping nor repeating', async () => {
    const registry = registryOf(['a', 'c', 'e', 'g'].map((key) => entry(key)));
    const first = await registry.page(checkFor, undefined, 2);
    expect(names(first)).toEqual(['a', 'c']);
    registry.add(entry('b')); // before the cursor: not listed again
    registry.add(entry('d')); // after it: listed
    registry.remove('c'); // the key the cursor points after
    const second = await registry.page(checkFor, first.nextCursor, 2);
    expect(names(second)).toEqual(['d', 'e']);
    registry.remove('g');
    const third = await registry.page(checkFor, second.nextCursor, 2);
    expect(third).toEqual({ items: [] });
  });

  it('answers an empty page for a cursor past every entry', async () => {
    const registry = registryOf(['a', 'b', 'c'].map((key) => entry(key)));
    const first = await registry.page(checkFor, undefined, 2);
    registry.remove('c');
    expect(await registry.page(checkFor, first.nextCursor, 2)).toEqual({ items: [] });
  });

  it.each([
    ['not base64', '!!!'],
    ['base64 of something else', Buffer.from('hello').toString('base64url')],
    ['a cursor with padding', `${Buffer.from('k:a').toString('base64')}==`],
    ['standard base64 of the same key', Buffer.from('k:>>>?').toString('base64')],
    ['base64url of a key without the cursor prefix', Buffer.from('x:a').toString('base64url')],
  ])('refuses %s as a cursor with -32602 and a helpful message', async (_what, cursor) => {
    const registry = registryOf([entry('a'), entry('b')]);
    const message = await invalidCursor(registry.page(checkFor, cursor, 1));
    expect(message).toContain(`Invalid cursor "${cursor}"`);
    expect(message).toMatch(/nextCursor of the previous page/);
    expect(message).toMatch(/no cursor for the first page/);
  });

  it('quotes only the start of a very long cursor', async () => {
    const cursor = 'A'.repeat(10_000);
    const message = await invalidCursor(registryOf([entry('a')]).page(checkFor, cursor, 1));
    expect(message).toContain(`"${'A'.repeat(64)}"`);
    expect(message.length).toBeLessThan(300);
  });

  it('runs visibility checks only for guarded entries, with the context made for each', async () => {
    const secret = guarded('secret', false);
    const shared = guarded('shared', true);
    const open = vi.fn(async () => true);
    const registry = registryOf([
      secret.entry,
      shared.entry,
      entry('open', Object.assign(open, { guarded: false })),
    ]);
    const contexts = new Map<string, McpCall>();
    const makeContext = vi.fn((e: Entry) => {
      const context = { key: e.key } as unknown as McpCall;
      contexts.set(e.key, context);
      return context;
    });
    const page = await registry.page(makeContext, undefined, 10);
    expect(names(page)).toEqual(['open', 'shared']);
    expect(open).not.toHaveBeenCalled();
    expect(secret.check).toHaveBeenCalledExactlyOnceWith(contexts.get('secret'));
    expect(shared.check).toHaveBeenCalledExactlyOnceWith(contexts.get('shared'));
    expect(makeContext.mock.calls.map(([e]) => e.key).toSorted()).toEqual(['secret', 'shared']);
  });

  it('fills a page past hidden entries, and resumes after the last one sent', async () => {
    const registry = registryOf([
      entry('a'),
      guarded('b', false).entry,
      guarded('c', false).entry,
      entry('d'),
      guarded('e', true).entry,
      guarded('f', false).entry,
      entry('g'),
    ]);
    expect(await everyPage(registry, 2)).toEqual([
      ['a', 'd'],
      ['e', 'g'],
    ]);
  });

  it('gives no nextCursor when the hidden entries are the rest of the list', async () => {
    const registry = registryOf([entry('a'), guarded('b', false).entry, guarded('c', false).entry]);
    const page = await registry.page(checkFor, undefined, 2);
    expect(names(page)).toEqual(['a']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('lists nothing, without a cursor, to a caller who may see nothing', async () => {
    const registry = registryOf(['a', 'b', 'c'].map((key) => guarded(key, false).entry));
    expect(await registry.page(checkFor, undefined, 2)).toEqual({ items: [] });
  });

  it('checks guards again on every listing (no caller sees another caller’s list)', async () => {
    let allowed = true;
    const check = vi.fn(async () => allowed);
    const registry = registryOf([entry('a'), entry('b', Object.assign(check, { guarded: true }))]);
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a', 'b']);
    allowed = false;
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a']);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('refuses to add a key that is already published, keeping the first', () => {
    const first = entry('a');
    const registry = registryOf([first]);
    const listener = vi.fn();
    registry.onChange(listener);
    expect(() => registry.add(entry('a'))).toThrow('"a" is already published; remove it first.');
    expect(registry.get('a')).toBe(first);
    expect(registry.size).toBe(1);
    expect(listener).not.toHaveBeenCalled();
  });

  it('lists added entries in order and stops listing removed ones', async () => {
    const registry = registryOf([entry('b')]);
    registry.add(entry('a'));
    registry.add(entry('c'));
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a', 'b', 'c']);
    expect(registry.remove('b')).toBe(true);
    expect(registry.remove('b')).toBe(false);
    expect(registry.get('b')).toBeUndefined();
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a', 'c']);
  });

  it('starts checking guards once a guarded entry is added, and stops once it is removed', async () => {
    const registry = registryOf([entry('a')]);
    const hidden = guarded('b', false);
    registry.add(hidden.entry);
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a']);
    registry.remove('b');
    registry.add(entry('b'));
    expect(names(await registry.page(checkFor, undefined, 10))).toEqual(['a', 'b']);
    expect(hidden.check).toHaveBeenCalledTimes(1);
  });

  it('calls each change listener once per change, and not after it unsubscribes', () => {
    const registry = registryOf();
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribe = registry.onChange(first);
    registry.onChange(second);
    registry.add(entry('a'));
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    registry.remove('a');
    expect(first).toHaveBeenCalledTimes(2);
    registry.remove('a'); // nothing removed: no change
    expect(first).toHaveBeenCalledTimes(2);
    unsubscribe();
    registry.add(entry('b'));
    expect(first).toHaveBeenCalledTimes(2);
    expect(second).toHaveBeenCalledTimes(3);
  });

  it('lets a change listener see the registry as changed', () => {
    const registry = registryOf();
    const seen: string[][] = [];
    registry.onChange(() => seen.push(registry.entries().map((e) => e.key)));
    registry.add(entry('b'));
    registry.add(entry('a'));
    expect(seen).toEqual([['b'], ['a', 'b']]);
  });
});
