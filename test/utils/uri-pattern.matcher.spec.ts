import { UriTemplate } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileUriPattern } from '../../lib/utils/uri-pattern.compiler.js';
import { matchUriPattern, type MatchMeter } from '../../lib/utils/uri-pattern.matcher.js';
import { templateAndUri } from './uri-template.arbitraries.js';

const RUNS = Number(process.env.URI_MATCHER_RUNS ?? 3000);

const match = (template: string, uri: string, meter?: MatchMeter) =>
  matchUriPattern(compileUriPattern(template), uri, meter);

/** The SDK's answer, or the error it throws (a template it parses but cannot match with). */
const sdkMatch = (template: string, uri: string) => new UriTemplate(template).match(uri);

describe('matchUriPattern', () => {
  it('gives the variables the SDK’s UriTemplate.match gives, on generated templates and URIs', () => {
    fc.assert(
      fc.property(templateAndUri, ([template, uri]) => {
        expect(match(template, uri)).toEqual(sdkMatch(template, uri));
      }),
      { numRuns: RUNS },
    );
  });

  it('reads ambiguous templates as the SDK does: each value, from the first, the longest', () => {
    const cases: Array<[string, string]> = [
      ['files://{name}.{ext}', 'files://a.b.c'],
      ['files://{name}.{ext}', `files://${'.'.repeat(50)}`],
      ['x://{a}{b}', 'x://abcd'],
      ['x://{a}-{b}-{c}', 'x://1-2-3-4-5'],
      ['x://{a*},{b*}', 'x://a,b,c,d'],
      ['x://{+a}/{b}', 'x://p/q/r'],
      ['x://{a}{.b}', 'x://f.tar.gz'],
      ['x://{a}{?q}', 'x://1?q=2?q=3'],
    ];
    for (const [template, uri] of cases) {
      expect(match(template, uri), `${template} ← ${uri}`).toEqual(sdkMatch(template, uri));
    }
    expect(match('files://{name}.{ext}', 'files://a.b.c')).toEqual({ name: 'a.b', ext: 'c' });
  });

  it('matches lists as the SDK does: no empty element, no leading or trailing comma', () => {
    for (const uri of ['t://a,b', 't://a,,b', 't://,a', 't://a,', 't://a/b', 't://a']) {
      expect(match('t://{names*}', uri), uri).toEqual(sdkMatch('t://{names*}', uri));
    }
    expect(match('t://{names*}', 't://a,b')).toEqual({ names: ['a', 'b'] });
  });

  it('takes line terminators in simple values only, as the SDK’s `.` does not match them', () => {
    expect(match('x://{+p}', 'x://a\nb')).toBeNull();
    expect(match('x://{p}', 'x://a\nb')).toEqual({ p: 'a\nb' });
    expect(match('x://{#p}', 'x://a\u2028b')).toBeNull();
  });

  it('gives a name Object.prototype has as a variable of its own', () => {
    const variables = match('x://{__proto__}/{constructor}', 'x://a/b');
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
    expect(Object.entries(variables!)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });
});

/** The most steps a match may take: linear in the URI, times the template's literal size. */
const bound = (template: string, uri: string) =>
  3 * (uri.length + 1) * (compileUriPattern(template).minLength + 1);

describe('matchUriPattern’s work', () => {
  it('stays within (URI length + 1) × 3 × (template size + 1) steps, matching or not', () => {
    fc.assert(
      fc.property(templateAndUri, ([template, uri]) => {
        const meter = { steps: 0 };
        match(template, uri, meter);
        expect(meter.steps).toBeLessThanOrEqual(bound(template, uri));
      }),
      { numRuns: RUNS },
    );
  });

  // The URIs that make the SDK's regular expression backtrack: a long run of characters two
  // captures compete for, then one that fails the match (files://{name}.{ext} with 32,000
  // dots and a slash takes the SDK over a second).
  const HOSTILE: Array<[string, (n: number) => string]> = [
    ['files://{name}.{ext}', (n) => `files://${'.'.repeat(n)}/`],
    ['files://{name}.{ext}', (n) => `files://${'.'.repeat(n)}`],
    ['x://{a}{b}{c}', (n) => `x://${'a'.repeat(n)}/`],
    ['x://{a*},{b*}', (n) => `x://${'a,'.repeat(n / 2)}/`],
    ['x://{+a}/{+b}/{c}', (n) => `x://${'/'.repeat(n)}`],
    ['x://{a}-{b}{?q,r}', (n) => `x://${'-'.repeat(n)}?q=${'&'.repeat(4)}`],
  ];

  it.each(HOSTILE)('grows linearly with the URI for %s', (template, uriOf) => {
    const steps = [1000, 2000, 4000, 8000, 16_000, 32_000].map((n) => {
      const meter = { steps: 0 };
      match(template, uriOf(n), meter);
      expect(meter.steps).toBeLessThanOrEqual(bound(template, uriOf(n)));
      return meter.steps;
    });
    // Twice the URI, at most twice the steps (and a few more): quadratic work would be four.
    for (let index = 1; index < steps.length; index++) {
      expect(steps[index]!).toBeLessThanOrEqual(2 * steps[index - 1]! + 64);
    }
  });
});
