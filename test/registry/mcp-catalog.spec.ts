import { describe, expect, it, vi } from 'vitest';
import type { DiscoveredCompleter } from '../../lib/discovery/discovered-completer.interface.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import type { VisibilityCheck } from '../../lib/execution/visibility.factory.js';
import type { McpScopeRequirement } from '../../lib/interfaces/mcp-scope-requirement.interface.js';
import { McpCatalog, type CatalogList } from '../../lib/registry/mcp-catalog.js';
import type {
  Completer,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from '../../lib/registry/registered-primitives.js';
import { UriTemplateMatcher } from '../../lib/utils/uri-template.matcher.js';

const everyone: VisibilityCheck = Object.assign(async () => true, { guarded: false });
const nothing = async () => {
  throw new Error('not called in these tests');
};

const tool = (name: string, more: Partial<RegisteredTool> = {}): RegisteredTool => ({
  key: name,
  definition: { name, inputSchema: { type: 'object' } },
  isVisible: everyone,
  invoke: nothing,
  ...more,
});

const prompt = (name: string, more: Partial<RegisteredPrompt> = {}): RegisteredPrompt => ({
  key: name,
  definition: { name },
  isVisible: everyone,
  get: nothing,
  argumentsSchema: { type: 'object', properties: { topic: { type: 'string' } } },
  completers: new Map(),
  ...more,
});

const resource = (uri: string, scopes?: McpScopeRequirement): RegisteredResource => ({
  key: uri,
  definition: { uri, name: uri },
  isVisible: everyone,
  read: nothing,
  ...(scopes && { scopes }),
});

const template = (uriTemplate: string, scopes?: McpScopeRequirement): RegisteredTemplate => ({
  key: uriTemplate,
  definition: { uriTemplate, name: uriTemplate },
  isVisible: everyone,
  read: nothing,
  template: new UriTemplateMatcher(uriTemplate),
  argumentsSchema: { type: 'object', properties: {} },
  completers: new Map(),
  ...(scopes && { scopes }),
});

const catalogOf = (
  entries: Partial<ConstructorParameters<typeof McpCatalog>[0]> = {},
  limits?: ConstructorParameters<typeof McpCatalog>[1],
) => new McpCatalog({ tools: [], prompts: [], resources: [], templates: [], ...entries }, limits);

const completerOf = (target: DiscoveredCompleter['target']): DiscoveredCompleter => ({
  target,
  where: 'Shop.completeTopic',
  wrapper: {} as DiscoveredCompleter['wrapper'],
  methodName: 'completeTopic',
});
const complete: Completer = () => ['a'];

describe('McpCatalog#onChange', () => {
  it('names the list that changed, templates as resources, once per change', () => {
    const catalog = catalogOf();
    const heard: CatalogList[] = [];
    const stop = catalog.onChange((list) => heard.push(list));
    catalog.tools.add(tool('t'));
    catalog.prompts.add(prompt('p'));
    catalog.resources.add(resource('app://r'));
    catalog.templates.add(template('app://items/{id}'));
    catalog.tools.remove('t');
    expect(heard).toEqual(['tools', 'prompts', 'resources', 'resources', 'tools']);
    stop();
    catalog.tools.add(tool('u'));
    catalog.templates.remove('app://items/{id}');
    expect(heard).toHaveLength(5);
  });
});

describe('McpCatalog#findResource', () => {
  it('finds a static resource first, with no variables', () => {
    const exact = resource('app://items/special');
    const catalog = catalogOf({ resources: [exact], templates: [template('app://items/{id}')] });
    expect(catalog.findResource('app://items/special')).toEqual({ resource: exact, variables: {} });
  });

  it('else the first template that matches, in the listed order, with its variables', () => {
    // Both match; '{+' sorts before '{i', so the reserved-expansion template is listed first.
    const anyPath = template('app://items/{+path}');
    const catalog = catalogOf({ templates: [template('app://items/{id}'), anyPath] });
    expect(catalog.findResource('app://items/42')).toEqual({
      resource: anyPath,
      variables: { path: '42' },
    });
    expect(catalog.findResource('app://other/42')).toBeUndefined();
  });
});

describe('McpCatalog#findResource and maxUriLength', () => {
  it('finds nothing for a URI over the limit, and tries no template against it', () => {
    const files = template('files://{name}.{ext}');
    const match = vi.spyOn(files.template, 'match');
    const exact = resource(`app://${'a'.repeat(20)}`);
    const catalog = catalogOf({ resources: [exact], templates: [files] }, { maxUriLength: 20 });
    expect(catalog.maxUriLength).toBe(20);
    expect(catalog.findResource(exact.key)).toBeUndefined();
    expect(catalog.findResource(`files://${'.'.repeat(32_000)}`)).toBeUndefined();
    expect(match).not.toHaveBeenCalled();
    expect(catalog.findResource('files://a.md')).toEqual({
      resource: files,
      variables: { name: 'a', ext: 'md' },
    });
    expect(match).toHaveBeenCalledOnce();
  });

  it('reads up to 4096 characters by default, the limit included', () => {
    const catalog = catalogOf({ templates: [template('files://{+path}')] });
    expect(catalog.maxUriLength).toBe(4096);
    const longest = `files://${'a'.repeat(4096 - 'files://'.length)}`;
    expect(catalog.findResource(longest)?.variables).toEqual({ path: longest.slice(8) });
    expect(catalog.findResource(`${longest}a`)).toBeUndefined();
  });

  it('has no scope requirement for a URI over the limit: the challenge finds no resource', () => {
    const catalog = catalogOf(
      { templates: [template('files://{+path}', { all: ['files.read'] })] },
      { maxUriLength: 32 },
    );
    const read = (uri: string) =>
      catalog.scopeRequirementOf({ method: 'resources/read', params: { uri } });
    expect(read('files://a')?.requirement).toEqual({ all: ['files.read'] });
    expect(read(`files://${'a'.repeat(32)}`)).toBeUndefined();
  });
});

describe('McpCatalog#attachCompleter', () => {
  it('makes the completer the one of the prompt’s argument', () => {
    const topics = prompt('brief');
    const catalog = catalogOf({ prompts: [topics] });
    catalog.attachCompleter(completerOf({ prompt: 'brief', argument: 'topic' }), complete);
    expect(topics.completers.get('topic')).toBe(complete);
  });

  it('completes a template’s URI variable too', () => {
    const items = template('app://items/{id}');
    const catalog = catalogOf({ templates: [items] });
    catalog.attachCompleter(
      completerOf({ resource: 'app://items/{id}', argument: 'id' }),
      complete,
    );
    expect(items.completers.get('id')).toBe(complete);
  });

  it('refuses a target this server does not publish, listing what it does', () => {
    const catalog = catalogOf({ prompts: [prompt('brief'), prompt('summary')] });
    const attach = () =>
      catalog.attachCompleter(completerOf({ prompt: 'breif', argument: 'topic' }), complete);
    expect(attach).toThrow(McpConfigurationError);
    expect(attach).toThrow(
      'Shop.completeTopic completes the prompt "breif", which this server does not publish ' +
        '(it publishes: brief, summary).',
    );
    expect(() =>
      catalogOf().attachCompleter(
        completerOf({ resource: 'app://x/{id}', argument: 'id' }),
        complete,
      ),
    ).toThrow(
      'resource template "app://x/{id}", which this server does not publish (it publishes: none)',
    );
  });

  it('refuses an argument the target does not have, listing its arguments', () => {
    const catalog = catalogOf({ templates: [template('app://items/{id}')] });
    expect(() =>
      catalog.attachCompleter(
        completerOf({ resource: 'app://items/{id}', argument: 'sku' }),
        complete,
      ),
    ).toThrow(
      'completes "sku" of the resource template "app://items/{id}", which has no such argument (its arguments: id).',
    );
  });
});

describe('McpCatalog#scopeRequirementOf', () => {
  const admin = { all: ['admin'] };
  const catalog = catalogOf({
    tools: [tool('purge', { scopes: admin, aliases: ['Shop.purge'] }), tool('open')],
    prompts: [prompt('secret', { scopes: { any: ['a', 'b'] } })],
    resources: [resource('app://report', { all: ['reports'] })],
    templates: [template('app://orders/{id}', { all: ['orders'] })],
  });

  it('reads what a tool needs, by its name or an alias, quoting the name asked for', () => {
    expect(catalog.scopeRequirementOf({ method: 'tools/call', params: { name: 'purge' } })).toEqual(
      { requirement: admin, what: "tool 'purge'" },
    );
    expect(
      catalog.scopeRequirementOf({ method: 'tools/call', params: { name: 'Shop.purge' } }),
    ).toEqual({ requirement: admin, what: "tool 'Shop.purge'" });
  });

  it('reads what a prompt and a resource need, a templated one by its URI', () => {
    expect(
      catalog.scopeRequirementOf({ method: 'prompts/get', params: { name: 'secret' } }),
    ).toEqual({ requirement: { any: ['a', 'b'] }, what: "prompt 'secret'" });
    expect(
      catalog.scopeRequirementOf({ method: 'resources/read', params: { uri: 'app://orders/7' } }),
    ).toEqual({ requirement: { all: ['orders'] }, what: 'resource app://orders/7' });
    expect(
      catalog.scopeRequirementOf({ method: 'resources/read', params: { uri: 'app://report' } })
        ?.requirement,
    ).toEqual({ all: ['reports'] });
  });

  it('has nothing for an entry without scopes, an unknown one, or another method', () => {
    for (const request of [
      { method: 'tools/call', params: { name: 'open' } },
      { method: 'tools/call', params: { name: 'missing' } },
      { method: 'tools/call', params: { name: 3 } },
      { method: 'tools/call' },
      { method: 'tools/list', params: { name: 'purge' } },
      { method: 'resources/read', params: { uri: 'app://nowhere' } },
    ]) {
      expect(catalog.scopeRequirementOf(request)).toBeUndefined();
    }
  });
});

describe('McpCatalog#namedScopes', () => {
  it('lists every scope of every list once, sorted', () => {
    const catalog = catalogOf({
      tools: [
        tool('a', { scopes: { all: ['write', 'admin'] } }),
        tool('b', { scopes: { any: ['read', 'write'] } }),
      ],
      prompts: [prompt('p', { scopes: { all: ['zeta'] } })],
      resources: [resource('app://r', { all: ['alpha'] })],
      templates: [template('app://t/{id}', { any: ['read'] })],
    });
    expect(catalog.namedScopes()).toEqual(['admin', 'alpha', 'read', 'write', 'zeta']);
    expect(catalogOf({ tools: [tool('x')] }).namedScopes()).toEqual([]);
  });

  it('sees entries added at run time', () => {
    const catalog = catalogOf();
    const listener = vi.fn();
    catalog.onChange(listener);
    catalog.tools.add(tool('late', { scopes: { all: ['late'] } }));
    expect(catalog.namedScopes()).toEqual(['late']);
    expect(listener).toHaveBeenCalledWith('tools');
  });
});
