import { describe, expect, it } from 'vitest';
import {
  aliasTakenMessage,
  duplicateNameMessage,
  invalidNamingResultMessage,
  repeatedAliasMessage,
} from '../../lib/messages/names.messages.js';

describe('the messages about names', () => {
  it('names every method that shares a prompt name or a resource URI', () => {
    expect(duplicateNameMessage('prompt name', 'plan', ['A.plan', 'B.plan'])).toBe(
      'The prompt name "plan" is used by A.plan and B.plan. It must be unique per server.',
    );
  });

  it('shows what the naming option returned, as JSON', () => {
    expect(invalidNamingResultMessage(undefined, 'Catalog.search')).toMatch(
      /^The "naming" option of McpModule returned undefined for Catalog\.search, which is not a tool name/,
    );
    expect(invalidNamingResultMessage('a b', 'Catalog.search')).toContain('returned "a b" for');
  });

  it("tells an alias given twice from an alias that is the tool's own name", () => {
    expect(repeatedAliasMessage('search', 'Catalog.search', true)).toBe(
      `The alias "search" of Catalog.search is the tool's own name: list each former name ` +
        'once, and not the current one.',
    );
    expect(repeatedAliasMessage('find', 'Catalog.search', false)).toContain(
      'of Catalog.search is given twice:',
    );
  });

  it('names the tool whose name or alias an alias takes', () => {
    expect(aliasTakenMessage('find', 'Catalog.search', { where: 'Catalog.find', as: 'name' })).toBe(
      'The tool alias "find" of Catalog.search is also the name of a tool of Catalog.find. ' +
        'Names and aliases must be unique per server: drop or rename one.',
    );
  });
});
