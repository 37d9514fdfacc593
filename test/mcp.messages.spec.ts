import { describe, expect, it } from 'vitest';
import {
  duplicateRouteArgumentMessage,
  emptyServerMessage,
  invalidAsyncOptionsMessage,
  invalidOptionsMessage,
  invalidStdioOptionsMessage,
  missingParameterTypesMessage,
  undecoratedDtoMessage,
  unknownOptionMessage,
  unknownRouteArgumentOptionMessage,
  untypedRouteObjectMessage,
  type EmptyServerReport,
} from '../lib/mcp.messages.js';

const report = (overrides: Partial<EmptyServerReport> = {}): EmptyServerReport => ({
  server: 'catalog',
  scope: 'every entry without a group',
  providers: [],
  controllers: [],
  elsewhere: [],
  hidden: 0,
  ...overrides,
});

/** The bullet lines of a message, without their indent. */
const bullets = (message: string) =>
  message
    .split('\n')
    .filter((line) => line.startsWith('  - '))
    .map((line) => line.slice(4));

describe('the messages of invalid options', () => {
  it('list every problem as a bullet, then a correct example for the entry point', () => {
    const problems = ['"name" must be a non-empty string (got "")', '"pageSize" must be positive'];
    const message = invalidOptionsMessage(problems);
    expect(message).toMatch(/^Invalid McpModule options:\n {2}- "name"/);
    expect(bullets(message)).toEqual(problems);
    expect(message).toContain("A correct example:\nMcpModule.forRoot({\n  name: 'catalog',");

    expect(invalidAsyncOptionsMessage(['x'])).toMatch(
      /^Invalid McpModule\.forRootAsync\(\) options:\n {2}- x\nA correct example:\nMcpModule\.forRootAsync\(\{/,
    );
    expect(invalidStdioOptionsMessage(['x'])).toMatch(
      /^Invalid bootstrapStdio\(\) options:\n {2}- x\nA correct example:\nbootstrapStdio\(AppModule, \{/,
    );
  });
});

describe('unknownOptionMessage', () => {
  it('names the option the key was most likely meant to be', () => {
    expect(unknownOptionMessage('http.gaurds', 'http.guards', 'http', ['path', 'guards'])).toBe(
      '`http.gaurds` is not an option; did you mean `http.guards`?',
    );
  });

  it('lists the valid options of the level when nothing is close, naming a nested level', () => {
    expect(unknownOptionMessage('requestState.ttl', undefined, 'requestState', ['secret'])).toBe(
      '`requestState.ttl` is not an option; valid options of `requestState` are: secret',
    );
    expect(unknownOptionMessage('colour', undefined, '', ['name', 'version'])).toBe(
      '`colour` is not an option; valid options are: name, version',
    );
  });
});

describe('missingParameterTypesMessage', () => {
  it('asks for emitDecoratorMetadata on a decorated method', () => {
    const message = missingParameterTypesMessage('CatalogTools#search', true);
    expect(message).toMatch(/^CatalogTools#search has parameters but no type metadata\. Enable/);
    expect(message).not.toContain('@McpTool()');
  });

  it('explains that an undecorated method gets no metadata, and asks for @McpTool()', () => {
    const message = missingParameterTypesMessage('CatalogTools#search', false);
    expect(message).toContain('this one has none (@McpTools() on the class does not count)');
    expect(message).toContain('Put @McpTool() on it');
  });
});

describe('undecoratedDtoMessage', () => {
  const where = 'CatalogTools#search';

  it('says what each kind of entry loses, and offers the way out that kind has', () => {
    const tool = undecoratedDtoMessage('SearchDto', { kind: 'tool', name: 'search', where });
    expect(tool).toMatch(/^SearchDto has no class-validator decorators, so the tool "search" \(/);
    expect(tool).toContain('its input schema has no properties');
    expect(tool).toContain('give @McpTool({ inputSchema })');

    const prompt = undecoratedDtoMessage('PlanDto', { kind: 'prompt', name: 'plan', where });
    expect(prompt).toContain('the prompt "plan" (CatalogTools#search) takes no arguments');
    expect(prompt).toContain('prompts/list shows none');
    expect(prompt).not.toContain('plain object');

    const resource = undecoratedDtoMessage('ItemDto', {
      kind: 'resource',
      name: 'catalog://items/{id}',
      where,
    });
    expect(resource).toContain('the resource "catalog://items/{id}"');
    expect(resource).toContain('every read of a URI that has one is refused');
    expect(resource).toContain('Record<string, string>');
  });
});

describe('emptyServerMessage', () => {
  it('counts what was scanned, with singular and plural', () => {
    const message = emptyServerMessage(report({ providers: ['CatalogService'], controllers: [] }));
    expect(message).toMatch(/^MCP server "catalog" publishes nothing: it serves every entry/);
    expect(message).toContain('Scanned 1 provider (CatalogService) and 0 controllers of the app');
  });

  it('lists at most ten names and says how many more there are', () => {
    const providers = Array.from({ length: 12 }, (_, i) => `Service${i + 1}`);
    expect(emptyServerMessage(report({ providers }))).toContain(
      '12 providers (Service1, Service2, Service3, Service4, Service5, Service6, Service7, ' +
        'Service8, Service9, Service10, and 2 more)',
    );
  });

  it('gives only the two general causes when nothing went elsewhere and nothing is hidden', () => {
    expect(bullets(emptyServerMessage(report()))).toEqual([
      'the class is not in the "providers" (or "controllers") of a module the app imports',
      'its methods lack @McpTool(), @McpPrompt() or @McpResource() (or the class lacks @McpTools())',
    ]);
  });

  it('adds where entries went and how many are hidden, with the verb agreeing', () => {
    const causes = bullets(
      emptyServerMessage(
        report({ elsewhere: ['2 in group "billing"', '1 in version 2'], hidden: 1 }),
      ),
    );
    expect(causes).toHaveLength(4);
    expect(causes[2]).toMatch(
      /^the entries belong to other servers: 2 in group "billing"; 1 in version 2 \(@McpGroup\(\)/,
    );
    expect(causes[3]).toBe('1 of its methods is hidden (@McpHidden() or { hidden })');
    expect(bullets(emptyServerMessage(report({ hidden: 3 })))[2]).toBe(
      '3 of its methods are hidden (@McpHidden() or { hidden })',
    );
  });

  it('ends by telling apps that add entries at run time to ignore it', () => {
    expect(emptyServerMessage(report())).toMatch(
      /\nIf this server's entries are added at run time \(McpServerHost#addTool\(\)\), ignore this\.$/,
    );
  });
});

describe('the messages of routes published as tools', () => {
  it('names both sources of a duplicate argument', () => {
    expect(
      duplicateRouteArgumentMessage(
        'ProductsController#update',
        'id',
        "@Param('id')",
        'UpdateProductDto.id',
      ),
    ).toContain(
      `the argument "id" comes from both @Param('id') and UpdateProductDto.id. Give each name one source`,
    );
  });

  it("shows how to take one value by name with the route's own decorator", () => {
    expect(untypedRouteObjectMessage('ProductsController#list', 0, '@Query()', 'Object')).toBe(
      'Parameter 0 of ProductsController#list takes the whole @Query() object, but its type is ' +
        "Object, not a DTO class, so the tool's schema cannot list its properties. Declare it as " +
        "a class with class-validator decorators, or take each value by name (@Query('name')).",
    );
  });

  it('lists the arguments a route has, or says it has none', () => {
    expect(unknownRouteArgumentOptionMessage('ProductsController#get', 'sku', ['id', 'shop'])).toBe(
      'The "arguments" option of ProductsController#get names "sku", which no @Param(), ' +
        '@Query() or @Body() of the route gives. Its arguments: id, shop.',
    );
    expect(unknownRouteArgumentOptionMessage('ProductsController#get', 'sku', [])).toMatch(
      /Its arguments: \(none\)\.$/,
    );
  });
});
