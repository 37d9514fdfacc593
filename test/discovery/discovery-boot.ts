import type { INestApplication, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, type McpModuleOptions } from 'nestjs-mcp';
import { vi } from 'vitest';
import { CapturedLogs } from '../support/captured-logs.js';

export interface BootedApp {
  readonly app: INestApplication;
  readonly logs: CapturedLogs;
  /** Everything written to stdout and stderr while the app booted. */
  readonly printed: string;
}

export interface BootOptions {
  readonly options?: McpModuleOptions | McpModuleOptions[];
  readonly controllers?: Type[];
  readonly imports?: Type[];
}

const opened: INestApplication[] = [];

/**
 * Boots a real Nest app with `McpModule.forRoot()` and the given providers, its logs
 * captured (and kept off the test output). Rejects with the bootstrap error, if any.
 */
export async function bootApp(
  providers: Provider[],
  { options = { name: 'x', version: '1', http: false }, controllers, imports }: BootOptions = {},
): Promise<BootedApp> {
  const logs = new CapturedLogs();
  const written: string[] = [];
  const record = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(record);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(record);
  try {
    const servers = (Array.isArray(options) ? options : [options]).map((server) =>
      McpModule.forRoot(server),
    );
    const moduleRef = await Test.createTestingModule({
      imports: [...servers, ...(imports ?? [])],
      providers,
      controllers: controllers ?? [],
    })
      .setLogger(logs)
      .compile();
    const app = moduleRef.createNestApplication({ logger: logs });
    opened.push(app);
    await app.init();
    return { app, logs, printed: written.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** The bootstrap error of an app with these providers (fails the test if it boots). */
export async function bootError(providers: Provider[], boot: BootOptions = {}): Promise<Error> {
  const error = await bootApp(providers, boot).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof Error)) throw new Error('expected the bootstrap to fail, but it booted');
  return error;
}

/** Closes every app booted since the last call (for `afterEach`). */
export async function closeApps(): Promise<void> {
  const apps = opened.splice(0);
  await Promise.all(apps.map((app) => app.close().catch(() => undefined)));
}
