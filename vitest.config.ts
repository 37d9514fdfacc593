import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests and the sample import the package by its public name, as users do.
    alias: [
      {
        find: /^nestjs-mcp\/testing$/,
        replacement: fileURLToPath(new URL('./lib/testing/index.ts', import.meta.url)),
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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
