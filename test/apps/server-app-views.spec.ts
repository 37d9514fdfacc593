import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import { McpConfigurationError } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import {
  appViewMeta,
  appViewUri,
  type DiscoveredAppView,
} from '../../lib/discovery/app-view.discovery.js';
import type { DiscoveredTool } from '../../lib/discovery/discovered-tool.interface.js';
import {
  appToolMeta,
  serverAppViews,
  usedAppViews,
  withAppMeta,
  withAppsExtension,
} from '../../lib/registry/server-app-views.js';

const tool = (name: string, app?: DiscoveredTool['app'], group?: string): DiscoveredTool =>
  ({
    where: `Tools.${name}`,
    definition: { name, inputSchema: { type: 'object' }, _meta: { 'com.example/x': 1 } },
    ...(app && { app }),
    ...(group && { membership: { group } }),
  }) as unknown as DiscoveredTool;

const methodView = (name: string, group?: string): DiscoveredAppView =>
  ({
    name,
    where: `@McpAppView() on Views.${name}`,
    resource: {},
    ...(group && { membership: { group } }),
  }) as unknown as DiscoveredAppView;

const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return error as Error;
  }
  throw new Error('expected it to throw');
};

describe('appViewUri', () => {
  it('is ui://<server>/<view>, each part a safe URI segment', () => {
    expect(appViewUri('shop', 'product-card')).toBe('ui://shop/product-card');
    expect(appViewUri('my shop/eu', 'card')).toBe('ui://my%20shop%2Feu/card');
  });
});

describe('appViewMeta', () => {
  it('holds only the settings given: nothing declared is no network at all', () => {
    expect(appViewMeta({})).toEqual({});
    expect(appViewMeta({ title: 'Card', prefersBorder: false })).toEqual({ prefersBorder: false });
    const csp = { connectDomains: ['https://api.example.com'] };
    expect(appViewMeta({ csp, domain: 'a.example', permissions: { camera: {} } })).toEqual({
      csp,
      domain: 'a.example',
      permissions: { camera: {} },
    });
  });
});

describe('appToolMeta', () => {
  const uri = 'ui://shop/card';

  it('names the view under ui.resourceUri and the flat legacy key', () => {
    expect(appToolMeta(undefined, { view: 'card' }, uri)).toEqual({
      ui: { resourceUri: uri },
      [RESOURCE_URI_META_KEY]: uri,
    });
  });

  it('adds the visibility when given, and no URI for a tool without a view', () => {
    expect(appToolMeta(undefined, { visibility: ['app'] }, undefined)).toEqual({
      ui: { visibility: ['app'] },
    });
  });

  it("merges into the tool's own _meta, the library's keys winning", () => {
    const declared = { 'com.example/x': 1, ui: { hint: 'kept', resourceUri: 'ui://old' } };
    expect(appToolMeta(declared, { view: 'card', visibility: ['model'] }, uri)).toEqual({
      'com.example/x': 1,
      ui: { hint: 'kept', resourceUri: uri, visibility: ['model'] },
      [RESOURCE_URI_META_KEY]: uri,
    });
    expect(declared.ui.resourceUri).toBe('ui://old');
  });
});

describe('serverAppViews', () => {
  it('joins the option and the methods by name', () => {
    const views = serverAppViews({ card: { file: '/views/card.html' } }, [methodView('chart')]);
    expect([...views.keys()]).toEqual(['card', 'chart']);
  });

  it('refuses a name declared by the option and a method, or by two methods', () => {
    expect(
      thrown(() => serverAppViews({ card: { file: '/c.html' } }, [methodView('card')])).message,
    ).toContain('by the "apps.views" option and @McpAppView() on Views.card');
    expect(
      thrown(() => serverAppViews(undefined, [methodView('card'), methodView('card')])).message,
    ).toContain('declared twice');
  });
});

describe('withAppMeta', () => {
  const views = serverAppViews({ card: { file: '/c.html' } }, []);

  it('gives every form of the definition the _meta of its view on this server', () => {
    const nullable = { definition: { name: 'get', inputSchema: { type: 'object' } } };
    const base = { ...tool('get', { view: 'card' }), withNullableOptionals: () => nullable };
    const published = withAppMeta(base as DiscoveredTool, 'shop', views);
    expect(published.definition._meta).toMatchObject({
      'com.example/x': 1,
      ui: { resourceUri: 'ui://shop/card' },
    });
    expect(published.withNullableOptionals!()!.definition._meta).toEqual({
      ui: { resourceUri: 'ui://shop/card' },
      [RESOURCE_URI_META_KEY]: 'ui://shop/card',
    });
  });

  it('leaves a tool outside MCP Apps as it is', () => {
    const plain = tool('plain');
    expect(withAppMeta(plain, 'shop', views)).toBe(plain);
  });

  it('refuses a view the server does not have, naming the tool and its views', () => {
    const message = thrown(() =>
      withAppMeta(tool('get', { view: 'chart' }), 'shop', views),
    ).message;
    expect(message).toContain('The tool "get" (Tools.get) shows the view "chart"');
    expect(message).toContain('(its views: "card")');
  });
});

describe('usedAppViews', () => {
  it('publishes the views the server’s tools show', () => {
    const views = serverAppViews({ card: { file: '/c.html' } }, [methodView('chart')]);
    const tools = [tool('a', { view: 'card' }), tool('b', { view: 'chart' })];
    expect(usedAppViews('shop', views, tools, tools).map((view) => view.name)).toEqual([
      'card',
      'chart',
    ]);
  });

  it('refuses an option view no tool of the server shows', () => {
    const views = serverAppViews({ card: { file: '/c.html' } }, []);
    const elsewhere = [tool('a', { view: 'card' }, 'other')];
    expect(thrown(() => usedAppViews('shop', views, [], elsewhere)).message).toContain(
      'The view "card" (the "apps.views" option) is shown by no tool of the MCP server "shop"',
    );
  });

  it('leaves off a method view that only other versions of its group show', () => {
    const views = serverAppViews(undefined, [methodView('chart', 'catalog')]);
    const appTools = [tool('a', { view: 'chart' }, 'catalog')];
    expect(usedAppViews('catalog-v1', views, [], appTools)).toEqual([]);
    expect(() => usedAppViews('catalog-v1', views, [], [])).toThrow(McpConfigurationError);
  });
});

describe('withAppsExtension', () => {
  it('advertises MCP Apps with the MIME type of views, only when the server has some', () => {
    const app = new Map([['com.example/audit', {}]]);
    expect(withAppsExtension(app, false)).toBe(app);
    expect(Object.fromEntries(withAppsExtension(app, true))).toEqual({
      'com.example/audit': {},
      [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] },
    });
  });
});
