import type { INestApplication, LoggerService, LogLevel, Type } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test, type TestingModule } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { FixtureAppModule } from '../fixtures/fixture-app.module.js';

/** The HTTP platforms the endpoint must serve alike. */
export type HttpAdapterName = 'express' | 'fastify';
export const ADAPTERS: readonly HttpAdapterName[] = ['express', 'fastify'];

export interface RunningApp {
  app: INestApplication;
  /** The MCP endpoint's URL. */
  url: URL;
  close(): Promise<void>;
}

export interface StartOptions {
  adapter?: HttpAdapterName;
  globalPrefix?: string;
  /** The endpoint's `http.path`. @default 'mcp' */
  mcpPath?: string;
  /** `CapturedLogs` (test/support/captured-logs.ts) for a test that makes the app fail on purpose. @default ['error'] */
  logger?: LoggerService | LogLevel[] | false;
  /** Runs after the app is created and before it listens (global pipes, shutdown hooks…). */
  configure?: (app: INestApplication) => void;
}

const createAdapter = (name: HttpAdapterName) =>
  name === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();

/**
 * Starts a compiled testing module on 127.0.0.1 with a free port, on the given platform.
 * (`listen()` also makes Fastify ready, which supertest on `getHttpServer()` needs.)
 */
export async function startApp(
  module: Type | TestingModule,
  options: StartOptions = {},
): Promise<RunningApp> {
  const { logger } = options;
  const builder = typeof module === 'function' && Test.createTestingModule({ imports: [module] });
  // A logger object (CapturedLogs, say) also receives what is logged while compiling.
  if (builder && typeof logger === 'object' && !Array.isArray(logger)) builder.setLogger(logger);
  const moduleRef = builder ? await builder.compile() : (module as TestingModule);
  const app = moduleRef.createNestApplication(createAdapter(options.adapter ?? 'express'), {
    logger: logger ?? ['error'],
  });
  if (options.globalPrefix) app.setGlobalPrefix(options.globalPrefix);
  options.configure?.(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const path = [options.globalPrefix, options.mcpPath ?? 'mcp'].filter(Boolean).join('/');
  return { app, url: new URL(`http://127.0.0.1:${port}/${path}`), close: () => app.close() };
}

/** Starts the fixture app; `globalPrefix` is optional, the platform Express by default. */
export function startFixtureApp(options: Omit<StartOptions, 'mcpPath'> = {}): Promise<RunningApp> {
  return startApp(FixtureAppModule, options);
}
