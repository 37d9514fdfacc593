import { describe, expect, it } from 'vitest';
import {
  undecoratedOutputMessage,
  unknownArgumentOptionMessage,
} from '../../lib/messages/schema.messages.js';

describe('the messages about the schemas of a tool', () => {
  it("lists the DTO's properties for an unknown name in the arguments option, or says none", () => {
    expect(unknownArgumentOptionMessage('sku', 'SearchDto', ['query', 'limit'])).toBe(
      'The "arguments" option names "sku", which is not a property of SearchDto. ' +
        'Its properties: query, limit.',
    );
    expect(unknownArgumentOptionMessage('sku', 'SearchDto', [])).toMatch(
      /Its properties: \(none\)\.$/,
    );
  });

  it('names the output class, or an anonymous one as such', () => {
    expect(undecoratedOutputMessage('ProductDto')).toMatch(
      /^ProductDto has no class-validator decorators, so no output schema/,
    );
    expect(undecoratedOutputMessage('')).toMatch(/^The output class has no class-validator/);
  });
});
