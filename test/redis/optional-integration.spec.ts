import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPoints, importsOf, libFiles, reachedFrom, ROOT } from '../support/module-imports.js';

const INTEGRATION = 'lib/redis/';
const REDIS_PACKAGES = ['ioredis', 'bullmq'];

const isRedisPackage = (specifier: string) =>
  REDIS_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));

describe('the Redis integration costs nothing when unused (nestjs-mcp/redis)', () => {
  const entries = entryPoints();
  const others = Object.entries(entries).filter(([name]) => name !== './redis');

  it('is the entry point nestjs-mcp/redis, and the only one that loads ioredis and bullmq', () => {
    expect(entries['./redis']).toBe('lib/redis/index.ts');
    const imports = [...reachedFrom(entries['./redis']!).values()].flat();
    const loaded = new Set(
      imports.filter(({ specifier, typeOnly }) => !typeOnly && isRedisPackage(specifier)),
    );
    expect([...loaded].map(({ specifier }) => specifier)).toEqual(
      expect.arrayContaining(REDIS_PACKAGES),
    );
  });

  it.each(others)('%s (%s) reaches neither ioredis, bullmq nor the integration', (_name, entry) => {
    const reached = reachedFrom(entry);
    expect(reached.size).toBeGreaterThan(0);
    const offending = [...reached].flatMap(([file, imports]) => {
      const path = relative(ROOT, file);
      if (path.startsWith(INTEGRATION)) return [`${path} (the integration itself)`];
      return imports
        .filter(({ specifier }) => isRedisPackage(specifier))
        .map(({ specifier }) => `${path} imports ${specifier}`);
    });
    expect(offending).toEqual([]);
  });

  it('leaves no file of lib/ outside the integration naming ioredis or bullmq', () => {
    const files = libFiles().filter((file) => !file.startsWith(INTEGRATION));
    const offending = files.filter((file) =>
      importsOf(join(ROOT, file)).some(({ specifier }) => isRedisPackage(specifier)),
    );
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });
});
