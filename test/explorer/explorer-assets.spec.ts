import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExplorerAssets } from '../../lib/explorer/explorer-assets.js';

describe('ExplorerAssets', () => {
  const root = mkdtempSync(join(tmpdir(), 'explorer-assets-'));
  const built = join(root, 'dist', 'explorer-ui', 'assets');
  mkdirSync(join(built, 'nested'), { recursive: true });
  writeFileSync(join(built, 'explorer.js'), 'console.log(1)');
  writeFileSync(join(built, 'explorer.css'), 'body{}');
  writeFileSync(join(built, 'sandbox.js'), 'void 0');
  writeFileSync(join(built, 'notes.txt'), 'not a page file');
  writeFileSync(join(built, 'nested', 'deep.js'), 'void 0');
  writeFileSync(join(root, 'secret.js'), 'secret');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the first directory that has the page, and serves its files with their media types', () => {
    const assets = new ExplorerAssets([join(root, 'missing'), built]);
    expect(assets.directory).toBe(built);
    expect(assets.get('explorer.js')).toMatchObject({
      mediaType: 'text/javascript; charset=utf-8',
      body: Buffer.from('console.log(1)'),
    });
    expect(assets.get('explorer.css')?.mediaType).toBe('text/css; charset=utf-8');
    expect(assets.get('explorer.js')?.etag).toMatch(/^"[\w-]{43}"$/);
    expect(assets.get('explorer.js')?.etag).not.toBe(assets.get('sandbox.js')?.etag);
  });

  it('serves no other file: another kind, a folder, or a name that leaves the directory', () => {
    const assets = new ExplorerAssets([built]);
    for (const name of [
      'notes.txt',
      'nested',
      'nested/deep.js',
      '../../../secret.js',
      '..%2f..%2f..%2fsecret.js',
      '',
    ]) {
      expect(assets.get(name), name).toBeUndefined();
    }
  });

  it('serves nothing when the page is not built', () => {
    const assets = new ExplorerAssets([join(root, 'missing')]);
    expect(assets.directory).toBeUndefined();
    expect(assets.get('explorer.js')).toBeUndefined();
  });
});
