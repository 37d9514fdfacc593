import { describe, expect, it } from 'vitest';
import { toSnakeCase } from '../../lib/utils/to-snake-case.util.js';

describe('toSnakeCase', () => {
  it.each([
    ['searchProducts', 'search_products'],
    ['get', 'get'],
    ['getHTTPStatus', 'get_http_status'],
    ['listV2Items', 'list_v2_items'],
    ['already_snake', 'already_snake'],
  ])('%s → %s', (input, output) => {
    expect(toSnakeCase(input)).toBe(output);
  });
});
