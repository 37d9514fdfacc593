import { UriTemplate, type Variables } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UriTemplateMatcher } from '../../lib/utils/uri-template.matcher.js';
import { templateAndUri } from './uri-template.arbitraries.js';

const RUNS = Number(process.env.URI_MATCHER_RUNS ?? 3000);

/**
 * The matcher as it was before issue 31, on the SDK's `UriTemplate.match` (a regular
 * expression built on every call): what the linear matcher must answer alike.
 */
class SdkUriTemplateMatcher {
  private readonly template: UriTemplate;
  private readonly path?: UriTemplate;
  private readonly queryNames: readonly string[] = [];

  constructor(template: string) {
    this.template = new UriTemplate(template);
    const query = /\{\?([^}]+)\}$/.exec(template);
    if (query) {
      this.path = new UriTemplate(template.slice(0, query.index));
      this.queryNames = query[1]!.split(',').map((name) => name.replace(/\*$/, '').trim());
    }
  }

  match(uri: string): Record<string, string | string[]> | null {
    const exact = this.template.match(uri);
    if (exact) return decodedAll(exact);
    if (!this.path) return null;
    const separator = uri.indexOf('?');
    const matched = this.path.match(separator === -1 ? uri : uri.slice(0, separator));
    if (!matched) return null;
    const variables = decodedAll(matched);
    const params = new URLSearchParams(separator === -1 ? '' : uri.slice(separator + 1));
    for (const name of this.queryNames) {
      const values = params.getAll(name);
      if (values.length === 1) variables[name] = values[0]!;
      else if (values.length > 1) variables[name] = values;
    }
    return variables;
  }
}

const decodeOne = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};
const decodedAll = (variables: Variables) =>
  Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(decodeOne) : decodeOne(value),
    ]),
  );

describe('UriTemplateMatcher', () => {
  it('matches simple variables and decodes them', () => {
    const matcher = new UriTemplateMatcher('app://users/{id}');
    expect(matcher.match('app://users/42')).toEqual({ id: '42' });
    expect(matcher.match('app://users/a%20b')).toEqual({ id: 'a b' });
    expect(matcher.match('app://orders/42')).toBeNull();
  });

  it('keeps a value whose percent-encoding is broken as it was sent', () => {
    expect(new UriTemplateMatcher('app://users/{id}').match('app://users/%E0%A4%A')).toEqual({
      id: '%E0%A4%A',
    });
  });

  it('matches exploded lists', () => {
    const matcher = new UriTemplateMatcher('files://{path*}');
    expect(matcher.match('files://a,b')).toEqual({ path: ['a', 'b'] });
    expect(matcher.match('files://readme.md')).toEqual({ path: 'readme.md' });
  });

  it('matches reserved expansion across slashes', () => {
    expect(new UriTemplateMatcher('files://{+path}').match('files://a/b/c.txt')).toEqual({
      path: 'a/b/c.txt',
    });
  });

  it('treats form-style query variables as optional and order-free', () => {
    const matcher = new UriTemplateMatcher('app://orders{?page,limit}');
    expect(matcher.match('app://orders?page=2&limit=5')).toEqual({ page: '2', limit: '5' });
    expect(matcher.match('app://orders?limit=5&page=2')).toEqual({ page: '2', limit: '5' });
    expect(matcher.match('app://orders?page=2')).toEqual({ page: '2' });
    expect(matcher.match('app://orders')).toEqual({});
    expect(matcher.match('app://orders?page=2&debug=1')).toEqual({ page: '2' });
    expect(matcher.match('app://orders?q=a%20b&q=c')).toEqual({});
    expect(matcher.match('app://customers?page=2')).toBeNull();
  });

  it('combines path variables with an optional query', () => {
    const matcher = new UriTemplateMatcher('app://users/{id}/orders{?status}');
    expect(matcher.match('app://users/7/orders?status=open%20now')).toEqual({
      id: '7',
      status: 'open now',
    });
    expect(matcher.match('app://users/7/orders')).toEqual({ id: '7' });
  });

  it('lists the variable names', () => {
    expect(new UriTemplateMatcher('app://users/{id}/orders{?status,page}').variableNames).toEqual([
      'id',
      'status',
      'page',
    ]);
  });

  it('gives the variables the SDK-based matcher gave, decoded, with the trailing query', () => {
    const withQuery = templateAndUri.chain(([template, uri]) =>
      fc.tuple(
        fc.constant(`${template}{?q,x}`),
        fc.constantFrom(uri, `${uri}?x=1&q=a%20b&q=c`, `${uri}?q=%E0%A4%A`, `${uri}?`),
      ),
    );
    fc.assert(
      fc.property(fc.oneof(templateAndUri, withQuery), ([template, uri]) => {
        expect(new UriTemplateMatcher(template).match(uri)).toEqual(
          new SdkUriTemplateMatcher(template).match(uri),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('reads an ambiguous template as the SDK does: the first expression the longest value', () => {
    const matcher = new UriTemplateMatcher('files://{name}.{ext}');
    expect(matcher.match('files://archive.tar.gz')).toEqual({ name: 'archive.tar', ext: 'gz' });
    expect(matcher.ambiguities).toEqual([{ first: '{name}', second: '{ext}', separator: '.' }]);
    expect(matcher.separated).toBe('files://{name}/{ext}');
    expect(new UriTemplateMatcher('files://{name}/{ext}').ambiguities).toEqual([]);
  });

  it('counts its steps: a 32,000-character URI that defeats the SDK’s regex takes linear work', () => {
    const matcher = new UriTemplateMatcher('files://{name}.{ext}');
    const stepsFor = (n: number) => {
      const meter = { steps: 0 };
      expect(matcher.match(`files://${'.'.repeat(n)}/`, meter)).toBeNull();
      return meter.steps;
    };
    expect(stepsFor(32_000)).toBeLessThanOrEqual(3 * 32_001 * 10);
    expect(stepsFor(32_000)).toBeLessThanOrEqual(2 * stepsFor(16_000) + 64);
  });

  it('refuses an expression without a variable, which the SDK fails to match with', () => {
    expect(() => new UriTemplate('x://{a}{+}').match('x://ab')).toThrow(TypeError);
    expect(() => new UriTemplateMatcher('x://{a}{+}')).toThrow(
      'The expression {+} names no variable',
    );
    expect(new UriTemplateMatcher('x://{a}{?}').match('x://b')).toEqual({ a: 'b' });
  });
});
