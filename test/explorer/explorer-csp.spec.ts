import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  explorerPageCsp,
  httpOriginSource,
  viewDomainsOf,
  viewSandboxCsp,
} from '../../lib/explorer/explorer-csp.js';
import { cspOf, pageCsp } from './explorer-wire.js';

describe('explorerPageCsp', () => {
  it('is the policy of docs/explorer.md, connecting to its origin only without auth', () => {
    expect(explorerPageCsp()).toBe(pageCsp());
    expect(explorerPageCsp()).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
        "media-src 'self' data: blob:; font-src 'self'; connect-src 'self'; frame-src 'self'; " +
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('adds each authorization server origin once to connect-src', () => {
    expect(
      cspOf(explorerPageCsp(['https://auth.example.com', 'https://auth.example.com']))[
        'connect-src'
      ],
    ).toEqual(["'self'", 'https://auth.example.com']);
  });
});

describe('httpOriginSource', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://API.Example.com/', 'https://api.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://*.example.com', 'https://*.example.com'],
    ['https://[::1]:8443', 'https://[::1]:8443'],
  ])('keeps the origin %s', (value, source) => {
    expect(httpOriginSource(value)).toBe(source);
  });

  it.each([
    "'unsafe-eval'",
    "'self'",
    '*',
    'https://*',
    'javascript:alert(1)',
    'data:',
    'blob:',
    'https:',
    'ftp://files.example.com',
    'https://example.com/path',
    'https://example.com?x=1',
    'https://user@example.com',
    'https://example.com;script-src *',
    "https://example.com 'unsafe-inline'",
    'https://exa mple.com',
    'https://a,b.com',
    'https://*.*.example.com',
    'example.com',
    '',
    42,
    null,
  ])('drops %j', (value) => {
    expect(httpOriginSource(value)).toBeUndefined();
  });
});

describe('the view sandbox policy', () => {
  it('allows no network, frame or other origin when the view declares nothing', () => {
    expect(viewSandboxCsp(viewDomainsOf(undefined))).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; " +
        "connect-src 'none'; frame-src 'none'; base-uri 'self'; form-action 'none'; " +
        "frame-ancestors 'self'",
    );
  });

  it('maps each declared list to its directives', () => {
    const policy = cspOf(
      viewSandboxCsp(
        viewDomainsOf(
          JSON.stringify({
            connectDomains: ['https://api.example.com'],
            resourceDomains: ['https://cdn.example.com'],
            frameDomains: ['https://www.youtube.com'],
            baseUriDomains: ['https://base.example.com'],
          }),
        ),
      ),
    );
    expect(policy).toMatchObject({
      'connect-src': ['https://api.example.com'],
      'script-src': ["'self'", "'unsafe-inline'", 'https://cdn.example.com'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://cdn.example.com'],
      'frame-src': ['https://www.youtube.com'],
      'base-uri': ['https://base.example.com'],
    });
  });

  it('keeps its eleven directives and no keyword of the query, whatever the query', () => {
    const anything = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "'unsafe-eval'",
        '*',
        ';',
        "; script-src 'unsafe-eval'",
        'https://a.example.com;',
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc
            .record({
              connectDomains: fc.array(anything),
              resourceDomains: fc.array(anything),
              frameDomains: fc.array(anything),
              baseUriDomains: fc.array(anything),
            })
            .map((declared) => JSON.stringify(declared)),
        ),
        (query) => {
          const header = viewSandboxCsp(viewDomainsOf(query));
          const policy = cspOf(header);
          expect(Object.keys(policy)).toHaveLength(11);
          expect(header).not.toContain('unsafe-eval');
          for (const sources of Object.values(policy)) {
            for (const source of sources) {
              expect(
                /^'(none|self|unsafe-inline)'$|^(data|blob):$/.test(source) ||
                  httpOriginSource(source) === source,
                source,
              ).toBe(true);
            }
          }
        },
      ),
    );
  });
});
