import {
  Logger,
  type DynamicModule,
  type INestApplicationContext,
  type LoggerService,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Writable } from 'node:stream';
import {
  authenticateCaller,
  CallerRefusedError,
  MCP_AUTHORIZATION_ENV,
  resolveCallerRequest,
} from '../caller.authenticator.js';
import { validateStdioBootstrapOptions } from '../../options/stdio-options.validator.js';
import { serveConnection } from '../server.connection.js';
import { selectServer } from '../server.selector.js';
import { ClosableStdioTransport } from './closable-stdio.transport.js';
import { redirectConsoleToStderr } from './console.redirect.js';
import { StderrLogger } from './stderr.logger.js';
import { environmentLocale } from '../../localization/locale.negotiator.js';
import type { StdioBootstrapOptions } from './stdio-bootstrap-options.interface.js';

/** A Nest app serving one MCP server over stdio. */
export interface McpStdioServer {
  /** The Nest application context (no HTTP server). */
  readonly app: INestApplicationContext;
  /** Settles once the connection is over (stdin closed, or `close()`) and the app is closed. */
  readonly closed: Promise<void>;
  /** Ends the connection and closes the app (the process keeps running). */
  close(): Promise<void>;
}

/**
 * Serves an app's MCP server over stdio, for clients that start the server as a process
 * (Claude Desktop, Cursor, `claude mcp add`, the Inspector's stdio mode).
 *
 * The app is a Nest application context, without an HTTP server. Its tools run through
 * the same guards, interceptors, pipes and filters as over HTTP; clients of 2026-07-28 and
 * of the 2025 revisions are both served. Stdout carries MCP alone: Nest logs and
 * `console.log`/`info`/`debug` go to stderr while serving. When stdin closes, the app is
 * closed and the process exits with 0 (see `exitOnClose`).
 *
 * @example
 * ```ts
 * // main-stdio.ts
 * import 'reflect-metadata';
 * import { bootstrapStdio } from 'nestjs-mcp/stdio';
 * import { AppModule } from './app.module.js';
 *
 * await bootstrapStdio(AppModule, {
 *   request: { headers: { authorization: `Bearer ${process.env.API_TOKEN}` } },
 * });
 * ```
 * @publicApi
 */
export async function bootstrapStdio(
  module: Type<unknown> | DynamicModule,
  options: StdioBootstrapOptions = {},
): Promise<McpStdioServer> {
  validateStdioBootstrapOptions(options);
  const restoreConsole = redirectConsoleToStderr();
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(module, {
      logger: toLogger(options.logger),
      // Report bootstrap errors to the caller instead of aborting the process.
      abortOnError: false,
    });
    return await serve(app, options, restoreConsole);
  } catch (error) {
    await app?.close().catch(() => undefined);
    restoreConsole();
    if (error instanceof CallerRefusedError) {
      error.message +=
        `. Give the caller's credentials in the request option of bootstrapStdio(), ` +
        `for example { headers: { authorization: 'Bearer <token>' } }, or set ${MCP_AUTHORIZATION_ENV}.`;
    }
    throw error;
  }
}

async function serve(
  app: INestApplicationContext,
  options: StdioBootstrapOptions,
  restoreConsole: () => void,
): Promise<McpStdioServer> {
  const logger = new Logger('McpStdio');
  const server = selectServer(app, options.server);
  const request = await resolveCallerRequest(options.request);
  await authenticateCaller(app, server, request, options.guards);
  // SIGINT/SIGTERM close the app (its shutdown hooks run) before the process ends.
  app.enableShutdownHooks();

  let wireClosed!: () => void;
  const ended = new Promise<void>((resolve) => (wireClosed = resolve));
  const stdout = options.stdout ?? process.stdout;
  const transport = new ClosableStdioTransport(options.stdin, stdout, () => wireClosed());
  const { localization } = server;
  // One connection, one language: the option, else the environment, else the default.
  const locale = localization?.pick(options.locale ?? environmentLocale());
  const connection = serveConnection(
    server,
    transport,
    { request, ...(locale && { locale }) },
    {
      legacy: options.legacy ?? 'serve',
      onerror: (error) => logger.warn(`MCP over stdio: ${error.message}`),
    },
  );
  logger.log(`Serving the MCP server "${server.options.name}" over stdio`);

  const closed = ended.then(async () => {
    let exitCode = 0;
    try {
      await connection.close().catch(() => undefined);
      await app.close();
    } catch (error) {
      exitCode = 1;
      logger.error(`Closing the app failed: ${(error as Error).stack ?? String(error)}`);
    }
    restoreConsole();
    if (options.exitOnClose ?? true) {
      await flush(stdout);
      process.exit(exitCode);
    }
  });
  return {
    app,
    closed,
    close: async () => {
      await connection.close();
      await closed;
    },
  };
}

function toLogger(logger: StdioBootstrapOptions['logger']): LoggerService | false {
  if (logger === undefined) return new StderrLogger();
  if (Array.isArray(logger)) return new StderrLogger({ logLevels: logger });
  return logger;
}

/** Waits until what was written to stdout has been handed to the OS. */
function flush(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}
