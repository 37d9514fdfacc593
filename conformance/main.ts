import { NestFactory } from '@nestjs/core';
import { ConformanceModule, MCP_PATH } from './conformance.module.js';

const DEFAULT_PORT = 3001;
// Loopback only, and named 127.0.0.1: the suite's dns-rebinding-protection scenario needs
// a localhost URL, and the library's Host/Origin checks apply on loopback connections.
const HOST = '127.0.0.1';

async function bootstrap(): Promise<void> {
  const port = Number(process.env.PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0 to 65535); got "${process.env.PORT}"`);
  }
  const app = await NestFactory.create(ConformanceModule, { logger: ['error', 'warn', 'log'] });
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  // The runner (scripts/conformance.mjs) waits for the endpoint to answer, not for this
  // line; it is for people who start the app with `npm run conformance:server`.
  process.stderr.write(`Conformance app: MCP endpoint at ${await app.getUrl()}/${MCP_PATH}\n`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `Conformance app failed to start: ${String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
