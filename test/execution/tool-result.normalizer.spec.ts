import { Exclude } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { normalizeToolResult } from '../../lib/execution/tool-result.normalizer.js';

class Account {
  id = 'a1';
  @Exclude()
  passwordHash = 'secret';
}

describe('normalizeToolResult', () => {
  it.each([
    ['a string', 'hello', [{ type: 'text', text: 'hello' }]],
    ['a number', 42, [{ type: 'text', text: '42' }]],
    ['a boolean', false, [{ type: 'text', text: 'false' }]],
  ])('turns %s into one text content', (_what, value, content) => {
    expect(normalizeToolResult(value)).toEqual({ content });
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])(
    'turns %s (a method that returns nothing) into the text null, never an empty content',
    (_what, value) => {
      expect(normalizeToolResult(value)).toEqual({ content: [{ type: 'text', text: 'null' }] });
    },
  );

  it('sends no structuredContent for nothing, even when the tool declares an output', () => {
    // The output validator then refuses it as "no data", as any result without data.
    expect(normalizeToolResult(null, { structured: true })).toEqual({
      content: [{ type: 'text', text: 'null' }],
    });
    expect(normalizeToolResult(undefined, { structured: true })).not.toHaveProperty(
      'structuredContent',
    );
  });

  it('keeps a result that chose an empty content as it is', () => {
    const result = { content: [] };
    expect(normalizeToolResult(result)).toBe(result);
  });

  it('turns an object into JSON text plus structured content', () => {
    expect(normalizeToolResult({ total: 1, items: ['x'] })).toEqual({
      content: [{ type: 'text', text: '{"total":1,"items":["x"]}' }],
      structuredContent: { total: 1, items: ['x'] },
    });
  });

  it('turns an array into JSON text plus structured content (the SDK wraps it for 2025 clients)', () => {
    expect(normalizeToolResult([1, 2])).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
      structuredContent: [1, 2],
    });
  });

  it('serialises class instances like Nest does, so @Exclude() fields never leak', () => {
    const result = normalizeToolResult(new Account());
    expect(result.structuredContent).toEqual({ id: 'a1' });
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('passes content blocks and lists of them through', () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    const link = { type: 'resource_link', uri: 'app://x', name: 'x' };
    expect(normalizeToolResult(image)).toEqual({ content: [image] });
    expect(normalizeToolResult([image, link])).toEqual({ content: [image, link] });
  });

  it('passes a whole CallToolResult through', () => {
    const result = {
      content: [{ type: 'text', text: 'done' }],
      structuredContent: { ok: true },
      isError: false,
    };
    expect(normalizeToolResult(result)).toBe(result);
  });

  it('does not mistake a domain object with a content field for a result', () => {
    const post = { title: 'Hi', content: ['paragraph'] };
    expect(normalizeToolResult(post).structuredContent).toEqual(post);
  });

  it('does not mistake an object with an unknown type for a content block', () => {
    expect(normalizeToolResult({ type: 'video', url: 'x' }).structuredContent).toEqual({
      type: 'video',
      url: 'x',
    });
  });
});

describe('normalizeToolResult with hostile "type" values', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'sends { type: %j } as JSON instead of crashing',
    (type) => {
      const value = JSON.parse(`{"type": ${JSON.stringify(type)}, "name": "x"}`);
      expect(normalizeToolResult(value)).toEqual({
        content: [{ type: 'text', text: JSON.stringify(value) }],
        structuredContent: value,
      });
    },
  );
});
