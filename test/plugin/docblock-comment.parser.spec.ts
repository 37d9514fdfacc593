import { describe, expect, it } from 'vitest';
import { parseDocblock } from '../../lib/plugin/docblock-comment.parser.js';

describe('parseDocblock', () => {
  it('reads a one-line docblock', () => {
    expect(parseDocblock('/** Finds products. */')).toEqual({
      description: 'Finds products.',
      params: new Map(),
    });
  });

  it('unwraps lines wrapped for the editor and keeps paragraphs, lists and code', () => {
    const comment = [
      '/**',
      ' * Searches the catalog by',
      ' * category and text.',
      ' *',
      ' * Two rules:',
      ' * - at most 50 results,',
      ' *   sorted by name',
      ' * 1. then by price',
      ' *',
      ' * ```ts',
      ' *   search({ q: 1 })',
      ' * ```',
      ' */',
    ].join('\n');
    expect(parseDocblock(comment).description).toBe(
      'Searches the catalog by category and text.\n\nTwo rules:\n- at most 50 results, sorted by name\n' +
        '1. then by price\n\n```ts\n  search({ q: 1 })\n```',
    );
  });

  it('reads @param tags in their JSDoc and TSDoc forms, multi-line ones unwrapped', () => {
    const comment = [
      '/**',
      ' * Updates a product.',
      ' * @param id The UUID',
      ' *   of the product.',
      ' * @param changes - the fields to change',
      ' * @param {number} [limit=10] - at most this many',
      ' * @param silent',
      ' * @returns the product',
      ' */',
    ].join('\n');
    const { description, params } = parseDocblock(comment);
    expect(description).toBe('Updates a product.');
    expect(Object.fromEntries(params)).toEqual({
      id: 'The UUID of the product.',
      changes: 'the fields to change',
      limit: 'at most this many',
    });
  });

  it('takes a @description tag when the comment has no text before its tags', () => {
    expect(
      parseDocblock('/**\n * @description Lists orders.\n * @deprecated\n */').description,
    ).toBe('Lists orders.');
    expect(parseDocblock('/** Text. @description Other. */').description).toBe(
      'Text. @description Other.',
    );
  });

  it('renders {@link} tags as their text, or their target', () => {
    expect(
      parseDocblock('/** See {@link ProductsService.find} and {@link Order | the order}. */')
        .description,
    ).toBe('See ProductsService.find and the order.');
  });

  it('gives an empty description for a docblock of tags only', () => {
    expect(parseDocblock('/** @internal */').description).toBe('');
  });
});
