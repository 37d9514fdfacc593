import { describe, expect, it } from 'vitest';
import {
  ambiguousTemplateMessage,
  emptyServerMessage,
  unknownCompletionArgumentMessage,
  unpublishedCompletionTargetMessage,
  type EmptyServerReport,
} from '../../lib/messages/catalog.messages.js';

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

describe('the messages of a completer whose target is missing', () => {
  it('names the prompt or template and what the server publishes, or says none', () => {
    expect(
      unpublishedCompletionTargetMessage(
        'Completions.sku',
        { prompt: 'summarize', argument: 'sku' },
        ['plan', 'digest'],
      ),
    ).toBe(
      'Completions.sku completes the prompt "summarize", which this server does not publish ' +
        '(it publishes: plan, digest).',
    );
    expect(
      unpublishedCompletionTargetMessage(
        'Completions.sku',
        { resource: 'catalog://products/{sku}', argument: 'sku' },
        [],
      ),
    ).toMatch(/the resource template "catalog:\/\/products\/\{sku\}", .*\(it publishes: none\)\.$/);
  });

  it('names the arguments the target has, or says none', () => {
    expect(
      unknownCompletionArgumentMessage('Completions.sku', { prompt: 'plan', argument: 'sku' }, [
        'topic',
      ]),
    ).toBe(
      'Completions.sku completes "sku" of the prompt "plan", which has no such argument ' +
        '(its arguments: topic).',
    );
    expect(
      unknownCompletionArgumentMessage('Completions.sku', { prompt: 'plan', argument: 'sku' }, []),
    ).toMatch(/\(its arguments: none\)\.$/);
  });
});

describe('ambiguousTemplateMessage', () => {
  const resource = { name: 'file', where: 'Files.read', uriTemplate: 'files://{name}.{ext}' };

  it('names the resource, the template, the ambiguity, how it is read and the fix', () => {
    const message = ambiguousTemplateMessage(
      resource,
      [{ first: '{name}', second: '{ext}', separator: '.' }],
      'files://{name}/{ext}',
    );
    expect(message).toBe(
      'The resource template files://{name}.{ext} of the resource "file" (Files.read) is ' +
        'ambiguous: {name} and {ext} are separated only by ".", which can be part of a value ' +
        'of each. A URI can then be read more than one way; resources/read gives the first ' +
        'expression the longest value the URI allows (as the MCP SDK does), which may not be ' +
        'the values the client expanded. Separate them with a character no value can ' +
        'contain, such as "/": files://{name}/{ext}.',
    );
  });

  it('says when nothing separates two expressions, and the fix when "/" alone would not do', () => {
    const message = ambiguousTemplateMessage(
      { ...resource, uriTemplate: 'x://{+a}{+b}' },
      [{ first: '{+a}', second: '{+b}', separator: '' }],
      undefined,
    );
    expect(message).toContain('{+a} and {+b} follow each other with nothing between them.');
    expect(message).toContain('make the expressions around it simple ones ({name}, not {+name})');
  });
});
