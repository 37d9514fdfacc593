import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

const PACKAGES = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-validator',
  'class-transformer',
  'autocannon',
];

function installedVersion(name: string): string {
  try {
    const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: new URL('../..', import.meta.url), encoding: 'utf8' }).trim();

/** The library's commit, and whether lib/ had uncommitted changes when it was built. */
function libraryRevision(): { commit: string; libDirty: boolean | 'unknown' } {
  try {
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      libDirty: git('status', '--porcelain', 'lib').length > 0,
    };
  } catch {
    return { commit: 'unknown', libDirty: 'unknown' };
  }
}

/** What the figures came from. */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    totalMemoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
    library: libraryRevision(),
    packages: Object.fromEntries(PACKAGES.map((name) => [name, installedVersion(name)])),
  };
}
