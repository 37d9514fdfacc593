import { describe, expect, it, vi } from 'vitest';
import type { McpCompletionContext } from '../../../lib/interfaces/mcp-completion.interface.js';
import {
  complete as completeRequest,
  completeArgument,
} from '../../../lib/protocol/handlers/completion.handlers.js';
import { McpCatalog } from '../../../lib/registry/mcp-catalog.js';
import { UriTemplateMatcher } from '../../../lib/utils/uri-template.matcher.js';
import { fakeScope } from '../../support/fake-call.js';
import type { Completer, RegisteredPrompt } from '../../../lib/registry/registered-primitives.js';
import type { JsonSchema } from '../../../lib/interfaces/json-schema.interface.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    language: { type: 'string', enum: ['TypeScript', 'typst', 'Rust', 'ruby', 'Go'] },
    level: { type: 'integer', enum: [1, 2, 10] },
    many: { type: 'string', enum: Array.from({ length: 150 }, (_, i) => `v${i}`) },
    free: { type: 'string' },
  },
};

const context = {
  arguments: { topic: 'x' },
  argument: 'language',
  call: {},
} as unknown as McpCompletionContext;

const target = (completers: Record<string, Completer> = {}) =>
  ({
    argumentsSchema: schema,
    completers: new Map(Object.entries(completers)),
  }) as unknown as RegisteredPrompt;

const complete = (name: string, value: string, completers?: Record<string, Completer>) =>
  completeArgument(target(completers), { name, value }, context);

const range = (length: number) => Array.from({ length }, (_, i) => `item${i}`);

describe('completeArgument with a completer', () => {
  it('asks the completer with what was typed and the context', async () => {
    const completer = vi.fn(() => ['alpha']);
    await complete('language', 'al', { language: completer });
    expect(completer).toHaveBeenCalledExactlyOnceWith('al', context);
  });

  it('sends the values of an array, with their count and no more', async () => {
    expect(await complete('free', 'a', { free: async () => ['ab', 'ac'] })).toEqual({
      values: ['ab', 'ac'],
      total: 2,
      hasMore: false,
    });
  });

  it('sends what the completer answers as it is, without filtering by prefix', async () => {
    expect(await complete('free', 'zzz', { free: () => ['ab'] })).toEqual({
      values: ['ab'],
      total: 1,
      hasMore: false,
    });
  });

  it('wins over the values the DTO lists', async () => {
    expect((await complete('language', 'T', { language: () => ['Tcl'] })).values).toEqual(['Tcl']);
  });

  it('sends no values when the completer has none', async () => {
    expect(await complete('free', '', { free: () => [] })).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it('sends at most 100 values of an array, with the real total and hasMore', async () => {
    const result = await complete('free', '', { free: () => range(250) });
    expect(result.values).toEqual(range(100));
    expect(result.total).toBe(250);
    expect(result.hasMore).toBe(true);
  });

  it('sends exactly 100 values without hasMore', async () => {
    expect(await complete('free', '', { free: () => range(100) })).toEqual({
      values: range(100),
      total: 100,
      hasMore: false,
    });
  });

  it('takes the total and hasMore the completer knows of', async () => {
    expect(
      await complete('free', '', {
        free: () => ({ values: ['a', 'b'], total: 40, hasMore: true }),
      }),
    ).toEqual({ values: ['a', 'b'], total: 40, hasMore: true });
  });

  it('derives hasMore from the total when the completer does not say', async () => {
    expect(await complete('free', '', { free: () => ({ values: ['a'], total: 3 }) })).toEqual({
      values: ['a'],
      total: 3,
      hasMore: true,
    });
    expect(await complete('free', '', { free: () => ({ values: ['a', 'b'] }) })).toEqual({
      values: ['a', 'b'],
      total: 2,
      hasMore: false,
    });
  });

  it('keeps an explicit hasMore: false', async () => {
    expect(
      await complete('free', '', { free: () => ({ values: ['a'], total: 9, hasMore: false }) }),
    ).toEqual({ values: ['a'], total: 9, hasMore: false });
  });

  it('caps an object answer at 100 values too', async () => {
    const result = await complete('free', '', { free: () => ({ values: range(120) }) });
    expect(result).toEqual({ values: range(100), total: 120, hasMore: true });
  });

  it('never reports a total below the values sent', async () => {
    expect(
      await complete('free', '', { free: () => ({ values: ['a', 'b', 'c'], total: 1 }) }),
    ).toEqual({ values: ['a', 'b', 'c'], total: 3, hasMore: false });
  });

  it('sends values as strings even when a completer returns other things', async () => {
    const sloppy = (() => [1, true]) as unknown as Completer;
    expect((await complete('free', '', { free: sloppy })).values).toEqual(['1', 'true']);
  });

  it('lets a completer error reach the caller', async () => {
    await expect(
      complete('free', '', {
        free: () => {
          throw new Error('backend down');
        },
      }),
    ).rejects.toThrow('backend down');
  });
});

describe('completeArgument from the values the DTO lists', () => {
  it('sends the listed values that start with what was typed, case-insensitively', async () => {
    expect(await complete('language', 'ty', {})).toEqual({
      values: ['TypeScript', 'typst'],
      total: 2,
      hasMore: false,
    });
    expect((await complete('language', 'RU')).values).toEqual(['Rust', 'ruby']);
  });

  it('sends every listed value for an empty prefix', async () => {
    expect((await complete('language', '')).values).toEqual([
      'TypeScript',
      'typst',
      'Rust',
      'ruby',
      'Go',
    ]);
  });

  it('matches a prefix only, never the middle of a value', async () => {
    expect((await complete('language', 'script')).values).toEqual([]);
  });

  it('completes numbers listed by the DTO as strings', async () => {
    expect((await complete('level', '1')).values).toEqual(['1', '10']);
  });

  it('treats what was typed literally, not as a pattern', async () => {
    expect((await complete('language', '.*')).values).toEqual([]);
    expect((await complete('language', '[')).values).toEqual([]);
  });

  it('sends at most 100 listed values, with the total and hasMore', async () => {
    const all = await complete('many', '');
    expect(all.values).toHaveLength(100);
    expect(all.values[0]).toBe('v0');
    expect(all.total).toBe(150);
    expect(all.hasMore).toBe(true);
    expect(await complete('many', 'v14')).toEqual({
      values: ['v14', ...Array.from({ length: 10 }, (_, i) => `v14${i}`)],
      total: 11,
      hasMore: false,
    });
  });

  it.each([
    ['a property that lists no values', 'free'],
    ['an unknown argument', 'nope'],
    ['a prototype member', '__proto__'],
  ])('sends no values for %s', async (_what, name) => {
    expect(await complete(name, '')).toEqual({ values: [], total: 0, hasMore: false });
  });
});

describe('complete with a ref/resource', () => {
  const files = new UriTemplateMatcher('files://{name}.{ext}');
  const catalog = new McpCatalog(
    {
      tools: [],
      prompts: [],
      resources: [],
      templates: [
        {
          key: 'files://{name}.{ext}',
          definition: { uriTemplate: 'files://{name}.{ext}', name: 'file' },
          isVisible: Object.assign(async () => true, { guarded: false }),
          read: async () => ({ contents: [] }),
          template: files,
          argumentsSchema: { type: 'object', properties: {} },
          completers: new Map([['ext', () => ['md', 'txt']]]),
        },
      ],
    },
    { maxUriLength: 64 },
  );
  const ask = (uri: string) =>
    completeRequest(
      catalog,
      {
        method: 'completion/complete',
        params: { ref: { type: 'ref/resource', uri }, argument: { name: 'ext', value: '' } },
      },
      fakeScope(),
    );

  it('refuses a URI over maxUriLength with -32602, saying the limit and the length', async () => {
    await expect(ask(`files://${'.'.repeat(100)}`)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('URI too long: 108 characters, over the limit of 64.'),
      data: { length: 108, maxUriLength: 64 },
    });
  });

  it('completes a template whose URI is within it', async () => {
    expect((await ask('files://{name}.{ext}')).completion.values).toEqual(['md', 'txt']);
  });
});
