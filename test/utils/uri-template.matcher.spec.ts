import { describe, expect, it } from 'vitest';
import { UriTemplateMatcher } from '../../lib/utils/uri-template.matcher.js';

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
});
