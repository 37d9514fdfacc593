import { describe, expect, it } from 'vitest';
import {
  inMethodMessage,
  invalidGroupVersionMessage,
  unknownTemplateVariablesMessage,
  versionWithoutGroupMessage,
} from '../../lib/messages/discovery.messages.js';

describe('the messages about the MCP decorators of a method', () => {
  it('prefixes a mistake found inside a method with the method', () => {
    expect(inMethodMessage('Catalog.search', 'the URI template "x" is not valid')).toBe(
      'Catalog.search: the URI template "x" is not valid',
    );
  });

  it('shows the group version it got, as JSON', () => {
    expect(invalidGroupVersionMessage('Catalog.search', [])).toMatch(
      /^Catalog\.search: a group version must be .* \(got \[\]\)\.$/,
    );
    expect(versionWithoutGroupMessage('Catalog.search', '2')).toMatch(
      /^Catalog\.search has a version \("2"\) but no group: /,
    );
  });

  it("lists the DTO's extra variables and the template's own, or says it has none", () => {
    expect(
      unknownTemplateVariablesMessage('Items.item', 'ItemDto', ['id', 'shop'], 'x://items', []),
    ).toBe(
      'Items.item: the variables DTO ItemDto declares "id", "shop", which the URI template ' +
        '"x://items" does not have (its variables: none).',
    );
  });
});
