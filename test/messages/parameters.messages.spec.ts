import { describe, expect, it } from 'vitest';
import {
  argumentsNotADtoMessage,
  missingParameterTypesMessage,
  parameterNotADtoMessage,
  undecoratedDtoMessage,
} from '../../lib/messages/parameters.messages.js';

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

describe('the messages of an arguments parameter that is not a DTO class', () => {
  it('spells out the interface case, whatever decorated the parameter', () => {
    for (const message of [
      argumentsNotADtoMessage('CatalogTools#search', 0, Object),
      parameterNotADtoMessage('CatalogTools#search', 0, Object),
    ]) {
      expect(message).toMatch(
        /^Parameter 0 of CatalogTools#search has no DTO class \(its type is Object\): an interface/,
      );
    }
  });

  it('names the type otherwise, or says it is unknown', () => {
    expect(parameterNotADtoMessage('CatalogTools#search', 1, String)).toMatch(
      /^Parameter 1 of CatalogTools#search has no DTO class \(its type is String\)\. A tool method takes/,
    );
    expect(parameterNotADtoMessage('CatalogTools#search', 1, undefined)).toContain(
      '(its type is unknown)',
    );
    expect(argumentsNotADtoMessage('CatalogTools#search', 2, String)).toMatch(
      /^Parameter 2 of CatalogTools#search takes the arguments but its type is not a DTO class\. /,
    );
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
