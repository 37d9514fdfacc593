// The optional integrations cost nothing when unused: each is an entry point of its own,
// the only one that loads its packages, and nothing else in lib/ reaches it.
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPoints, importsOf, libFiles, reachedFrom, ROOT } from '../support/module-imports.js';

interface Integration {
  /** The entry point, as `exports` names it. */
  readonly entry: string;
  readonly folder: string;
  /** The optional peers only it may import. */
  readonly packages: readonly string[];
  /** nestjs-i18n: the integration needs its types only, never its code. */
  readonly typesOnly: boolean;
}

const INTEGRATIONS: readonly Integration[] = [
  { entry: './i18n', folder: 'lib/i18n/', packages: ['nestjs-i18n'], typesOnly: true },
  { entry: './redis', folder: 'lib/redis/', packages: ['ioredis', 'bullmq'], typesOnly: false },
];

describe.each(INTEGRATIONS)('the integration $entry', ({ entry, folder, packages, typesOnly }) => {
  const entries = entryPoints();
  const others = Object.entries(entries).filter(([name]) => name !== entry);
  const isPackage = (specifier: string) =>
    packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));

  it('is an entry point of its own, beside the others', () => {
    expect(entries[entry]).toBe(`${folder}index.ts`);
    expect(others.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        '.',
        './stdio',
        './tasks',
        './testing',
        './plugin',
        'bin nestjs-mcp',
      ]),
    );
  });

  it.each(others)('%s (%s) reaches neither its packages nor the integration', (_name, file) => {
    const reached = reachedFrom(file);
    expect(reached.size).toBeGreaterThan(0);
    const offending = [...reached].flatMap(([path, imports]) => {
      const relativePath = relative(ROOT, path);
      if (relativePath.startsWith(folder)) return [`${relativePath} (the integration itself)`];
      return imports
        .filter(({ specifier }) => isPackage(specifier))
        .map(({ specifier }) => `${relativePath} imports ${specifier}`);
    });
    expect(offending).toEqual([]);
  });

  it('leaves no file of lib/ outside the integration naming its packages in an import', () => {
    const files = libFiles().filter((file) => !file.startsWith(folder));
    const offending = files.filter((file) =>
      importsOf(join(ROOT, file)).some(({ specifier }) => isPackage(specifier)),
    );
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it(typesOnly ? 'imports only the types of its packages' : 'loads its packages', () => {
    const imports = [...reachedFrom(entries[entry]!).values()].flat();
    const used = imports.filter(({ specifier }) => isPackage(specifier));
    const loaded = new Set(used.filter(({ typeOnly }) => !typeOnly).map((use) => use.specifier));
    expect(used.length).toBeGreaterThan(0);
    expect([...loaded].toSorted()).toEqual(typesOnly ? [] : [...packages].toSorted());
  });
});
