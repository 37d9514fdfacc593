import * as testing from 'nestjs-mcp/testing';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the nestjs-mcp/testing entry point', () => {
  it('exports the client, its request chain and the known schema gaps, and nothing else at run time', () => {
    expect(Object.keys(testing).toSorted()).toEqual([
      'KNOWN_SCHEMA_GAPS',
      'McpTestClient',
      'McpTestRequest',
    ]);
  });

  it('is in the exports map, built to dist/testing', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(manifest.exports['./testing']).toEqual({
      types: './dist/testing/index.d.ts',
      default: './dist/testing/index.js',
    });
  });

  it('costs nothing to apps that do not import it: the main barrel does not reach it', () => {
    const barrel = readFileSync(new URL('../../lib/index.ts', import.meta.url), 'utf8');
    expect(barrel).not.toMatch(/from '\.\/testing\//);
  });
});
