import { McpConfigurationError } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { withinMethod } from '../../lib/discovery/within-method.util.js';

describe('withinMethod', () => {
  it('returns what the step built', () => {
    expect(withinMethod('Catalog.search', () => 42)).toBe(42);
  });

  it('prefixes a configuration error with the method it belongs to', () => {
    let error: unknown;
    try {
      withinMethod('Catalog.search', () => {
        throw new McpConfigurationError('the "arguments" option names "q".');
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toBe('Catalog.search: the "arguments" option names "q".');
  });

  it('lets any other error through as it is', () => {
    const bug = new TypeError('boom');
    expect(() =>
      withinMethod('Catalog.search', () => {
        throw bug;
      }),
    ).toThrow(bug);
  });
});
