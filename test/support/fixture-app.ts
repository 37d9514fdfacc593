import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { FixtureAppModule } from '../fixtures/fixture-app.module.js';

export interface RunningApp {
  app: INestApplication;
  url: URL;
  close(): Promise<void>;
}

/** Starts the fixture app on 127.0.0.1 with a free port; `globalPrefix` is optional. */
export async function startFixtureApp(
  options: { globalPrefix?: string } = {},
): Promise<RunningApp> {
  const moduleRef = await Test.createTestingModule({ imports: [FixtureAppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  if (options.globalPrefix) app.setGlobalPrefix(options.globalPrefix);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const path = options.globalPrefix ? `/${options.globalPrefix}/mcp` : '/mcp';
  return { app, url: new URL(`http://127.0.0.1:${port}${path}`), close: () => app.close() };
}
