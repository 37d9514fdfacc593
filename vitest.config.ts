import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { vitePlugin } from './lib/plugin/index.js';

const SAMPLE_DIR = fileURLToPath(new URL('./sample/', import.meta.url));
const docblocks = vitePlugin();

/**
 * The sample is built with nestjs-mcp/plugin (`npm run build:sample`), so its tools take
 * their descriptions from docblocks; the tests load its sources through the same plugin, to
 * see what its checked-in contract (sample/mcp-contract.json) records. The library's own
 * fixtures are left as they are written.
 */
const sampleDocblocks = {
  ...docblocks,
  transform: (code: string, id: string) =>
    id.startsWith(SAMPLE_DIR) ? docblocks.transform(code, id) : undefined,
};

export default defineConfig({
  plugins: [sampleDocblocks],
  resolve: {
    // Tests and the sample import the package by its public name, as users do.
    alias: [
      {
        find: /^nestjs-mcp\/stdio$/,
        replacement: fileURLToPath(new URL('./lib/transports/stdio/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp\/tasks$/,
        replacement: fileURLToPath(new URL('./lib/tasks/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp\/testing$/,
        replacement: fileURLToPath(new URL('./lib/testing/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp\/i18n$/,
        replacement: fileURLToPath(new URL('./lib/i18n/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp\/redis$/,
        replacement: fileURLToPath(new URL('./lib/redis/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp\/plugin$/,
        replacement: fileURLToPath(new URL('./lib/plugin/index.ts', import.meta.url)),
      },
      {
        find: /^nestjs-mcp$/,
        replacement: fileURLToPath(new URL('./lib/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: ['test/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    environment: 'node',
    // As in a Nest app's entry file: decorators need the Reflect metadata API.
    setupFiles: ['reflect-metadata'],
    // The locale of stdio and the CLI comes from the environment (docs/i18n.md): the tests
    // and the processes they start see the servers' default texts whatever the machine's
    // LANG is, unless a test sets its own.
    env: { LC_ALL: 'C' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each worker keeps the modules it loaded from one test file to the next: importing Nest,
    // the SDK and the library again for each of some 200 files cost more than the tests
    // themselves (npm test: 8 min isolated, 5 without). So a test restores what it changes
    // of the process (environment variables, Nest's static logger, OpenTelemetry's global
    // providers, fake timers) and closes what it starts, as docs/testing.md asks.
    isolate: false,
    // Two workers on the 2-core machines CI runs on (vitest's default is one fewer than the
    // cores): much of the suite waits on servers, child processes and a browser, so two files
    // at a time took `npm test` from about 8 to 4 minutes. Servers listen on port 0, and each
    // test owns its temporary files, so files run side by side.
    maxWorkers: 2,
  },
});
