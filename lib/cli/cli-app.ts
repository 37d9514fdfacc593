import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { redirectConsoleToStderr } from '../transports/stdio/console.redirect.js';
import { StderrLogger } from '../transports/stdio/stderr.logger.js';

/** A Nest application context for one CLI command, with stdout kept for the command's output. */
export interface CliApp {
  readonly app: INestApplicationContext;
  close(): Promise<void>;
}

/**
 * Creates the app without an HTTP server. Nest's warnings and errors go to stderr (its
 * start-up lines are left out), and so does `console.log` from the app, so that `--json`
 * output stays parseable.
 */
export async function openCliApp(module: Type<unknown> | DynamicModule): Promise<CliApp> {
  const restoreConsole = redirectConsoleToStderr();
  try {
    const app = await NestFactory.createApplicationContext(module, {
      logger: new StderrLogger({ logLevels: ['fatal', 'error', 'warn'] }),
      abortOnError: false,
    });
    return {
      app,
      close: async () => {
        try {
          await app.close();
        } finally {
          restoreConsole();
        }
      },
    };
  } catch (error) {
    restoreConsole();
    throw error;
  }
}
