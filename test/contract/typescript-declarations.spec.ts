import { describe, expect, it } from 'vitest';
import {
  TypeScriptDeclarations,
  type TypeDeclaration,
} from '../../lib/contract/typescript-declarations.js';
import { allDiagnostics, typeCheck } from './declaration-type-check.js';

/** The file of the given declarations. */
function file(...declarations: TypeDeclaration[]): string {
  const declared = new TypeScriptDeclarations();
  for (const declaration of declarations) declared.declare(declaration);
  return declared.render();
}

/** The type `Value` is declared as: what follows `=` in its block (blocks are a blank line apart). */
function typeOf(schema: unknown): string {
  const block = file({ name: 'Value', schema })
    .split('\n\n')
    .find((text) => text.includes('export type Value = '))!;
  return block.slice(block.indexOf(' = ') + 3).replace(/;\n?$/, '');
}

describe('TypeScriptDeclarations: types', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'number' }, 'number'],
    [{ type: 'integer' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'null' }, 'null'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ type: ['integer', 'number'] }, 'number'],
    [{ type: 'string', format: 'date-time' }, 'string'],
  ])('%j is %s', (schema, type) => {
    expect(typeOf(schema)).toBe(type);
  });

  it.each([
    [{ type: 'string', enum: ['books', "it's", 'a\nb'] }, "'books' | 'it\\'s' | 'a\\nb'"],
    [{ enum: [1, -2.5, true, null] }, '1 | -2.5 | true | null'],
    [{ type: ['string', 'null'], enum: ['a', null] }, "'a' | null"],
    // Only the values of the given type can pass both keywords.
    [{ type: 'string', enum: ['a', 1] }, "'a'"],
    [{ type: 'integer', enum: [1, 1.5] }, '1'],
    [{ type: 'number', enum: [2] }, '2'],
    [{ const: 'fixed' }, "'fixed'"],
    [{ const: 'a', enum: ['b'] }, 'never'],
    // No literal type for an object or an array: the value is not described.
    [{ enum: ['a', { x: 1 }] }, 'unknown'],
    [{ const: [1] }, 'unknown'],
  ])('%j is %s', (schema, type) => {
    expect(typeOf(schema)).toBe(type);
  });

  it.each([
    [{ type: 'array', items: { type: 'string' } }, 'string[]'],
    [{ type: 'array', items: { type: 'array', items: { type: 'integer' } } }, 'number[][]'],
    [{ type: 'array', items: { type: ['string', 'null'] } }, '(string | null)[]'],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, "('a' | 'b')[]"],
    [{ type: 'array' }, 'unknown[]'],
    // A tuple type would be wrong about shorter arrays: not written out.
    [{ type: 'array', prefixItems: [{ type: 'string' }] }, 'unknown[]'],
    [{ type: 'array', items: [{ type: 'string' }] }, 'unknown[]'],
  ])('%j is %s', (schema, type) => {
    expect(typeOf(schema)).toBe(type);
  });

  it.each([
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'string | number'],
    [{ oneOf: [{ const: 'a' }, { const: 'b' }, { const: 'a' }] }, "'a' | 'b'"],
    [{ anyOf: [{ type: 'string' }, {}] }, 'unknown'],
    [{ allOf: [{ type: 'string' }, { not: { const: '' } }] }, 'string'],
    [
      { type: 'object', additionalProperties: false, allOf: [{ $ref: '#/$defs/A' }] },
      'Record<string, never> & A',
    ],
    [
      { type: ['string', 'null'], anyOf: [{ const: 'a' }, { const: 1 }] },
      "(string | null) & ('a' | 1)",
    ],
    [{ anyOf: [{ type: 'string' }, false] }, 'string'],
  ])('%j is %s', (schema, type) => {
    const defs = { A: { type: 'string' } };
    expect(typeOf({ ...schema, $defs: defs })).toBe(type);
  });

  it.each([
    [true, 'unknown'],
    [false, 'never'],
    [undefined, 'unknown'],
    [{}, 'unknown'],
    [{ description: 'anything' }, 'unknown'],
    [{ type: 'decimal' }, 'unknown'],
    [{ properties: { a: { type: 'string' } } }, 'unknown'],
    [{ $ref: 'https://example.com/schema.json' }, 'unknown'],
    [{ $ref: '#/$defs/Missing' }, 'unknown'],
    [{ type: 'string', not: { enum: ['x'] } }, 'string'],
  ])('%j, which it cannot express more closely, is %s', (schema, type) => {
    expect(typeOf(schema)).toBe(type);
  });
});

describe('TypeScriptDeclarations: objects', () => {
  it('marks properties outside required optional, quotes names that are not identifiers', () => {
    expect(
      file({
        name: 'Headers',
        schema: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            'content-type': { type: 'string' },
            '0day': { type: 'boolean' },
            "it's": { type: 'integer' },
            $ok: { type: 'null' },
          },
          required: ['id', 'content-type', 'missing'],
          additionalProperties: false,
        },
      }),
    ).toBe(
      [
        'export type Headers = {',
        '  id: string;',
        "  'content-type': string;",
        "  '0day'?: boolean;",
        "  'it\\'s'?: number;",
        '  $ok?: null;',
        // Required without a schema of its own: present, with any value.
        '  missing: unknown;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('admits other properties unless additionalProperties is false', () => {
    expect(typeOf({ type: 'object', additionalProperties: false })).toBe('Record<string, never>');
    expect(typeOf({ type: 'object' })).toBe('{\n  [key: string]: unknown;\n}');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'integer' } })).toBe(
      '{\n  [key: string]: number;\n}',
    );
    // Next to named properties an index signature must admit their types too.
    expect(
      typeOf({
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'integer' },
      }),
    ).toBe('{\n  a?: string;\n  [key: string]: unknown;\n}');
    expect(
      typeOf({
        type: 'object',
        additionalProperties: false,
        patternProperties: { '^x-': { type: 'string' } },
      }),
    ).toBe('{\n  [key: string]: unknown;\n}');
  });

  it('indents nested objects and writes a nullable object', () => {
    expect(
      typeOf({
        type: 'object',
        properties: {
          address: {
            type: ['object', 'null'],
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      }),
    ).toBe(['{', '  address?: {', '    city: string;', '  } | null;', '}'].join('\n'));
  });
});

describe('TypeScriptDeclarations: JSDoc', () => {
  it('writes descriptions, formats, defaults and deprecation as JSDoc, */ escaped', () => {
    expect(
      file({
        name: 'Query',
        doc: ['The arguments of `search`.'],
        schema: {
          type: 'object',
          description: 'What to look for.',
          properties: {
            q: { type: 'string', description: 'Words.\nEvery word must match */ all.' },
            limit: { type: 'integer', default: 10 },
            since: { type: 'string', format: 'date', deprecated: true },
          },
          additionalProperties: false,
        },
      }),
    ).toBe(
      [
        '/**',
        ' * The arguments of `search`.',
        ' *',
        ' * What to look for.',
        ' */',
        'export type Query = {',
        '  /**',
        '   * Words.',
        '   * Every word must match *\\/ all.',
        '   */',
        '  q?: string;',
        '  /** @default 10 */',
        '  limit?: number;',
        '  /**',
        '   * @format date',
        '   * @deprecated',
        '   */',
        '  since?: string;',
        '};',
        '',
      ].join('\n'),
    );
  });
});

const price = {
  type: 'object',
  description: 'A price.',
  properties: { amount: { type: 'number' } },
  required: ['amount'],
  additionalProperties: false,
};
const withPrice = (defs: Record<string, unknown>, ref = '#/$defs/PriceDto') => ({
  type: 'object',
  properties: { price: { $ref: ref } },
  required: ['price'],
  additionalProperties: false,
  $defs: defs,
});

describe('TypeScriptDeclarations: $defs', () => {
  it('declares each definition a schema reaches, once for the same definition', () => {
    const text = file(
      { name: 'A', schema: withPrice({ PriceDto: price, Unused: { type: 'string' } }) },
      { name: 'B', schema: withPrice({ PriceDto: price }) },
    );
    expect(text).toBe(
      [
        'export type A = {',
        '  price: PriceDto;',
        '};',
        '',
        '/** A price. */',
        'export type PriceDto = {',
        '  amount: number;',
        '};',
        '',
        'export type B = {',
        '  price: PriceDto;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('prefixes another definition of a taken name with its first user, drops _2 suffixes', () => {
    const other = { ...price, properties: { amount: { type: 'string' } } };
    const text = file(
      { name: 'A', schema: withPrice({ PriceDto: price }) },
      { name: 'B', schema: withPrice({ PriceDto_2: other }, '#/$defs/PriceDto_2') },
    );
    expect(text).toContain('export type BPriceDto = {\n  amount: string;\n};');
    expect(text).toContain('export type B = {\n  price: BPriceDto;\n};');
    expect(allDiagnostics({ 'types.d.ts': text })).toEqual([]);
  });

  it('declares recursive definitions and a schema that refers to its root', () => {
    const node = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } },
      },
      required: ['label'],
      additionalProperties: false,
    };
    const text = file(
      {
        name: 'Tree',
        schema: {
          type: 'object',
          properties: { root: { $ref: '#/$defs/TreeNode' } },
          $defs: { TreeNode: node },
        },
      },
      {
        name: 'List',
        schema: {
          type: 'object',
          properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
        },
      },
    );
    expect(text).toContain('children?: TreeNode[];');
    expect(text).toContain('next?: List | null;');
    const view = [
      "import type { List, Tree } from './types.js';",
      "const tree: Tree = { root: { label: 'a', children: [{ label: 'b' }] } };",
      'const list: List = { next: { next: null } };',
      'export { tree, list };',
    ].join('\n');
    expect(allDiagnostics({ 'types.d.ts': text, 'view.ts': view })).toEqual([]);
  });
});

describe('TypeScriptDeclarations: the declarations type-check', () => {
  const product = file({
    name: 'Product',
    schema: {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        price: { type: 'number' },
        category: { type: 'string', enum: ['books', 'toys'] },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        'sku-code': { type: 'string' },
        dimensions: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        seller: { $ref: '#/$defs/Seller' },
      },
      required: ['id', 'price', 'category'],
      additionalProperties: false,
      $defs: {
        Seller: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
  });

  /** The view's code, with `body` after an import of the declarations. */
  const check = (body: string) =>
    typeCheck({
      'product.d.ts': product,
      'view.ts': `import type { Product } from './product.js';\n${body}\nexport {};\n`,
    });

  it('checks declaration files too (the harness would miss nothing there)', () => {
    expect(typeCheck({ 'broken.d.ts': 'export type A = Missing;\n' })['broken.d.ts']).toEqual([
      "TS2304 Cannot find name 'Missing'.",
    ]);
  });

  it('compiles, and accepts a value the schema accepts', () => {
    const diagnostics = check(
      [
        'const product: Product = {',
        "  id: 'f3b1', price: 9.5, category: 'books', tags: null, 'sku-code': 'BOO-1',",
        "  dimensions: [[1, 2], [3]], seller: { name: 'Ann' },",
        '};',
        'const record: Record<string, unknown> = product;',
        'const price: number = product.price;',
        'void record;',
        'void price;',
      ].join('\n'),
    );
    expect(diagnostics).toEqual({ 'product.d.ts': [], 'view.ts': [] });
  });

  it.each([
    ["const p: Product = { id: 'a', price: '9.50', category: 'books' };", 'TS2322'],
    ["const p: Product = { id: 'a', price: 1, category: 'garden' };", 'TS2322'],
    ["const p: Product = { id: 'a', price: 1 };", 'TS2741'],
    ["const p: Product = { id: 'a', price: 1, category: 'toys', color: 'red' };", 'TS2353'],
    ["const p: Product = { id: 'a', price: 1, category: 'toys', seller: {} };", 'TS2741'],
    ['declare const p: Product; const n: string = p.price;', 'TS2322'],
    ['declare const p: Product; p.tags.length;', 'TS18049'],
  ])('refuses %s (%s)', (body, code) => {
    const diagnostics = check(body);
    expect(diagnostics['product.d.ts']).toEqual([]);
    expect(diagnostics['view.ts']!.map((line) => line.split(' ')[0])).toContain(code);
  });
});
