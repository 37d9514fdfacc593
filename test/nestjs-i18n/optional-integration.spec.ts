import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPoints, importsOf, libFiles, reachedFrom, ROOT } from '../support/module-imports.js';

const INTEGRATION = 'lib/nestjs-i18n/';

const isNestI18n = (specifier: string) =>
  specifier === 'nestjs-i18n' || specifier.startsWith('nestjs-i18n/');

describe('the nestjs-i18n integration costs nothing when absent', () => {
  const entries = entryPoints();
  const others = Object.entries(entries).filter(([name]) => name !== './i18n');

  it('is the entry point nestjs-mcp/i18n', () => {
    expect(entries['./i18n']).toBe('lib/nestjs-i18n/index.ts');
    expect(others.map(([name]) => name)).toEqual(
      expect.arrayContaining(['.', './testing', './plugin', 'bin nestjs-mcp']),
    );
  });

  it.each(others)('%s (%s) reaches neither nestjs-i18n nor the integration', (_name, entry) => {
    const reached = reachedFrom(entry);
    expect(reached.size).toBeGreaterThan(0);
    const offending = [...reached].flatMap(([file, imports]) => {
      const path = relative(ROOT, file);
      if (path.startsWith(INTEGRATION)) return [`${path} (the integration itself)`];
      return imports
        .filter(({ specifier }) => isNestI18n(specifier))
        .map(({ specifier }) => `${path} imports ${specifier}`);
    });
    expect(offending).toEqual([]);
  });

  it('leaves no file of lib/ outside the integration naming nestjs-i18n in an import', () => {
    const files = libFiles().filter((file) => !file.startsWith(INTEGRATION));
    const offending = files.filter((file) =>
      importsOf(join(ROOT, file)).some(({ specifier }) => isNestI18n(specifier)),
    );
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it('loads no code of nestjs-i18n in the integration either: it imports its types only', () => {
    const imports = [...reachedFrom(entries['./i18n']!).values()].flat();
    const fromNestI18n = imports.filter(({ specifier }) => isNestI18n(specifier));
    expect(fromNestI18n.length).toBeGreaterThan(0);
    expect(fromNestI18n.filter(({ typeOnly }) => !typeOnly)).toEqual([]);
  });
});
