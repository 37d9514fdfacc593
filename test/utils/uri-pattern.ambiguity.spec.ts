import { UriTemplate } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ambiguitiesOf, separatedTemplate } from '../../lib/utils/uri-pattern.ambiguity.js';
import { compileUriPattern } from '../../lib/utils/uri-pattern.compiler.js';
import { UriTemplateMatcher } from '../../lib/utils/uri-template.matcher.js';

const RUNS = Number(process.env.URI_MATCHER_RUNS ?? 3000);

const ambiguities = (template: string) => ambiguitiesOf(compileUriPattern(template));
const separated = (template: string) => separatedTemplate(compileUriPattern(template));

describe('ambiguitiesOf', () => {
  it.each([
    ['files://{name}.{ext}', '{name}', '{ext}', '.'],
    ['x://{a}{b}', '{a}', '{b}', ''],
    ['x://{a}-{b}', '{a}', '{b}', '-'],
    ['x://{name}{.ext}', '{name}', '{.ext}', '.'],
    ['x://{a*},{b*}', '{a*}', '{b*}', ','],
    ['x://{+a}{+b}', '{+a}', '{+b}', ''],
    ['x://{a}?{+b}', '{a}', '{+b}', '?'],
    ['x://{+a}/{b}/{+c}', '{+a}', '{+c}', '/{b}/'],
  ])('finds %s ambiguous: %s and %s across %j', (template, first, second, separator) => {
    expect(ambiguities(template)).toEqual([{ first, second, separator }]);
  });

  it.each([
    'files://{name}/{ext}',
    'files://{+path}',
    'files://{+path}/{file}',
    'app://users/{id}/orders{?status,page}',
    'app://items/{id}{?fields}',
    'x://{a}{/b}',
    'x://{a}?{b}',
    'tags://{names*}',
    'x://{a*},{b}',
    'app://orders',
  ])('finds %s unambiguous', (template) => {
    expect(ambiguities(template)).toEqual([]);
  });

  it('names each pair once, in order', () => {
    expect(ambiguities('x://{a}.{b}.{c}').map(({ first, second }) => [first, second])).toEqual([
      ['{a}', '{b}'],
      ['{b}', '{c}'],
    ]);
  });
});

describe('separatedTemplate', () => {
  it('puts a "/" between the expressions a URI cannot tell apart', () => {
    expect(separated('files://{name}.{ext}')).toBe('files://{name}/{ext}');
    expect(separated('x://{a}{b}-{c}')).toBe('x://{a}/{b}/{c}');
    expect(separated('x://{name}{.ext}')).toBe('x://{name}/{.ext}');
  });

  it('has none when a "/" would not separate them, or nothing needs separating', () => {
    expect(separated('x://{+a}.{+b}')).toBeUndefined();
    expect(separated('x://{+a}/{b}/{+c}')).toBeUndefined();
    expect(separated('files://{name}/{ext}')).toBeUndefined();
  });
});

// The claim the analysis makes: a template it finds unambiguous reads every URI it expands
// to back into the values expanded, whatever they contain.
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
const templateParts = fc.array(
  fc.oneof(
    fc
      .constantFrom('/', '/', '.', '-', '?', '=', '&', ',', ':', 'a', '/a/', '.a', '-a')
      .map((literal) => ({ literal })),
    fc.constantFrom('', '+', '.', '/').map((operator) => ({ operator })),
  ),
  { minLength: 1, maxLength: 6 },
);
const roundTrip = fc
  .tuple(templateParts, fc.constantFrom('', '{?q}', '{?q,r}'))
  .map(([parts, query]) => {
    let next = 0;
    const body = parts
      .map((part) => ('literal' in part ? part.literal : `{${part.operator}${NAMES[next++]}}`))
      .join('');
    return `x://${body}${query}`;
  })
  .chain((template) => {
    const names = new UriTemplate(template).variableNames;
    const value = fc
      .array(
        fc.constantFrom('a', '/', '/', '.', '.', '-', '?', '&', '=', ',', '%', 'é', ' ', '#', ':'),
        { minLength: 1, maxLength: 4 },
      )
      .map((chars) => chars.join(''));
    return fc.tuple(fc.constant(template), fc.tuple(...names.map(() => value)));
  });

describe('a template found unambiguous', () => {
  it('reads back the values of every URI it expands to', () => {
    let unambiguous = 0;
    fc.assert(
      fc.property(roundTrip, ([template, values]) => {
        const matcher = new UriTemplateMatcher(template);
        if (matcher.ambiguities.length > 0) return;
        unambiguous++;
        const variables = Object.fromEntries(matcher.variableNames.map((n, i) => [n, values[i]!]));
        const uri = new UriTemplate(template).expand(variables);
        expect(matcher.match(uri), `${template} ← ${uri}`).toEqual(variables);
      }),
      { numRuns: RUNS },
    );
    // The property is not vacuous: a good share of the generated templates are unambiguous.
    expect(unambiguous).toBeGreaterThan(RUNS / 10);
  });

  // Every template of two or three expressions with one-character separators, against values
  // holding each separator: the small space where a value in the middle may slide between
  // two that both may contain its separators (`{+a}/{b}/{+c}`), too rare for random search.
  it('reads back every value of every compact template', () => {
    const parts = ['', '+', '.'].flatMap((op) => ['', '/', '.', '?'].map((after) => [op, after]));
    const VALUES = ['a', 'a/a', 'a.a', 'a?a'];
    const templates = parts.flatMap((first) =>
      parts.flatMap((second) => [[first, second], ...parts.map((third) => [first, second, third])]),
    );
    let unambiguous = 0;
    for (const shape of templates) {
      const template = `x://${shape.map(([op, after], i) => `{${op}${NAMES[i]}}${after}`).join('')}`;
      const matcher = new UriTemplateMatcher(template);
      if (matcher.ambiguities.length > 0) continue;
      unambiguous++;
      const tuples = shape.reduce<string[][]>(
        (acc) => acc.flatMap((tuple) => VALUES.map((value) => [...tuple, value])),
        [[]],
      );
      for (const tuple of tuples) {
        const variables = Object.fromEntries(tuple.map((value, i) => [NAMES[i]!, value]));
        const uri = new UriTemplate(template).expand(variables);
        expect(matcher.match(uri), `${template} ← ${uri}`).toEqual(variables);
      }
    }
    expect(unambiguous).toBeGreaterThan(templates.length / 10);
  });
});
