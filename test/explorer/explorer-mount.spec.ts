import type { McpModuleOptions } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { explorerMountOf } from '../../lib/explorer/explorer-mount.js';

const options = (extra: Partial<McpModuleOptions> = {}): McpModuleOptions => ({
  name: 'shop',
  version: '1.0.0',
  ...extra,
});

describe('explorerMountOf', () => {
  it('mounts the explorer under the endpoint by default, out of production', () => {
    for (const env of [undefined, 'development', 'test', 'staging']) {
      expect(explorerMountOf(options(), env), String(env)).toEqual({ path: '/mcp/explorer' });
    }
    expect(explorerMountOf(options({ http: { path: 'api/v1/mcp/' } }), 'development')).toEqual({
      path: '/api/v1/mcp/explorer',
    });
  });

  it('leaves it off in production unless the options turn it on', () => {
    expect(explorerMountOf(options(), 'production')).toBe('production');
    expect(explorerMountOf(options({ explorer: { path: '/x' } }), 'production')).toBe('production');
    expect(explorerMountOf(options({ explorer: true }), 'production')).toEqual({
      path: '/mcp/explorer',
    });
    expect(explorerMountOf(options({ explorer: { enabled: true } }), 'production')).toEqual({
      path: '/mcp/explorer',
    });
  });

  it('leaves it off when the options turn it off, or without the HTTP endpoint', () => {
    expect(explorerMountOf(options({ explorer: false }), 'development')).toBe('option');
    expect(explorerMountOf(options({ explorer: { enabled: false } }), 'development')).toBe(
      'option',
    );
    expect(explorerMountOf(options({ http: false }), 'development')).toBe('no-http');
  });

  it('takes a path and a title of the options', () => {
    expect(
      explorerMountOf(options({ explorer: { path: '//tools-explorer/', title: 'Tools' } }), 'test'),
    ).toEqual({ path: '/tools-explorer', title: 'Tools' });
  });
});
