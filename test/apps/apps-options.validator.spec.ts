import { describe, expect, it } from 'vitest';
import {
  appsOptionsProblems,
  toolAppProblem,
  viewOptionsProblems,
} from '../../lib/options/apps-options.validator.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

describe('appsOptionsProblems', () => {
  it('accepts no option, no views, and well-formed views', () => {
    expect(appsOptionsProblems(undefined)).toEqual([]);
    expect(appsOptionsProblems({})).toEqual([]);
    expect(
      appsOptionsProblems({
        views: {
          'product-card': {
            file: '/srv/views/card.html',
            title: 'Card',
            csp: { connectDomains: ['https://api.example.com'], baseUriDomains: [] },
            permissions: { clipboardWrite: {} },
            domain: 'abc.example.com',
            prefersBorder: true,
          },
        },
      }),
    ).toEqual([]);
  });

  it('names each problem with its path', () => {
    expect(appsOptionsProblems([])).toEqual([
      '"apps" must be an object such as { views: { \'product-card\': { file } } }',
    ]);
    expect(appsOptionsProblems({ views: 'card.html' })[0]).toContain('"apps.views" must be');
    expect(
      appsOptionsProblems({
        views: {
          card: {
            file: 'card.html',
            csp: { connectDomains: 'https://a.example', scriptDomains: [] },
            permissions: { camera: true, usb: {} },
            prefersBorder: 'yes',
            domain: '',
            style: 'dark',
          },
          'a b': { file: '/x.html' },
        },
      }),
    ).toEqual([
      '"apps.views.card.style" is not an option of a view (valid: file, title, description, csp, permissions, domain, prefersBorder)',
      `"apps.views.card.file" must be the absolute path of the view's HTML file, such as fileURLToPath(new URL('../views/card.html', import.meta.url))`,
      `"apps.views.card.csp.connectDomains" must be an array of origins such as ['https://api.example.com']`,
      '"apps.views.card.csp.scriptDomains" is not a CSP setting (valid: connectDomains, resourceDomains, frameDomains, baseUriDomains)',
      '"apps.views.card.permissions.camera" is not a permission; write { camera: {} } with one of camera, microphone, geolocation, clipboardWrite',
      '"apps.views.card.permissions.usb" is not a permission; write { camera: {} } with one of camera, microphone, geolocation, clipboardWrite',
      '"apps.views.card.domain" must be a non-empty string',
      '"apps.views.card.prefersBorder" must be true or false',
      `The view name "a b" of the "apps.views" option is not valid: a view is named like a tool, matching ^[a-zA-Z0-9_.-]{1,128}$, such as 'product-card'.`,
    ]);
  });

  it('is part of the module options check', () => {
    expect(() => validateMcpModuleOptions({ name: 'x', version: '1', apps: { view: {} } })).toThrow(
      '`apps.view` is not an option; did you mean `apps.views`?',
    );
    expect(() =>
      validateMcpModuleOptions({ name: 'x', version: '1', apps: { views: { c: {} } } }),
    ).toThrow('"apps.views.c.file" must be the absolute path');
  });
});

describe('viewOptionsProblems of @McpAppView()', () => {
  it('has no file: the method makes the HTML', () => {
    expect(viewOptionsProblems("@McpAppView('c')", { title: 'C' }, false)).toEqual([]);
    expect(viewOptionsProblems("@McpAppView('c')", { file: '/c.html' }, false)).toEqual([
      `"@McpAppView('c').file" is not an option of a view (valid: title, description, csp, permissions, domain, prefersBorder)`,
    ]);
  });
});

describe('toolAppProblem', () => {
  it('accepts a view, a visibility, or both', () => {
    expect(toolAppProblem({ view: 'card' }, 'T.m')).toBeUndefined();
    expect(toolAppProblem({ visibility: ['app'] }, 'T.m')).toBeUndefined();
    expect(toolAppProblem({ view: 'card', visibility: ['model', 'app'] }, 'T.m')).toBeUndefined();
  });

  it('refuses what MCP Apps does not define, saying what to write', () => {
    const fix = ` Write it as { view: 'product-card' }, or { visibility: ['app'] } for a tool only a view calls.`;
    expect(toolAppProblem('card', 'T.m')).toBe(
      `The "app" option of @McpTool() on T.m must be an object.${fix}`,
    );
    expect(toolAppProblem({ views: 'card' }, 'T.m')).toBe(
      `The "app" option of @McpTool() on T.m has no option "views".${fix}`,
    );
    expect(toolAppProblem({ view: '' }, 'T.m')).toContain('names the view ""');
    for (const visibility of [[], ['app', 'app'], ['user'], 'app']) {
      expect(toolAppProblem({ visibility }, 'T.m')).toContain('has the visibility');
    }
  });
});
