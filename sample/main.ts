import { type INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule, MCP_PATH } from './app.module.js';
import { startSampleTelemetry } from './observability/console-telemetry.js';
import { loadSampleConfig } from './sample.config.js';

async function bootstrap(): Promise<void> {
  const config = loadSampleConfig();
  // `SAMPLE_OTEL=console`: the providers are registered before the app is created.
  await startSampleTelemetry('http');
  const app = await createApp(process.env.SAMPLE_ADAPTER);
  // Closes the MCP endpoint (and its open streams) on SIGINT/SIGTERM.
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);

  const url = `${await app.getUrl()}/${MCP_PATH}`;
  const logger = new Logger('Sample');
  logger.log(`MCP endpoint: ${url} (REST API: ${await app.getUrl()}/products)`);
  // The explorer is off in production unless the options turn it on (docs/explorer.md).
  if (process.env.NODE_ENV !== 'production') logger.log(`MCP explorer: ${url}/explorer`);
  if (config.oauth) {
    // OAuth mode: clients find the issuer from the endpoint's 401 and the metadata.
    const metadata = `${await app.getUrl()}/.well-known/oauth-protected-resource/${MCP_PATH}`;
    logger.log(`OAuth: tokens of ${config.oauth.issuer}; metadata: ${metadata}`);
    logger.log(`MCP client configuration:\n${JSON.stringify(clientConfigOf(url), null, 2)}`);
    return;
  }
  logger.log(`Reader token: ${config.readerToken} (search_products, get_product)`);
  logger.log(`Admin token: ${config.adminToken} (every tool)`);
  const headers = { Authorization: `Bearer ${config.adminToken}` };
  logger.log(`MCP client configuration:\n${JSON.stringify(clientConfigOf(url, headers), null, 2)}`);
}

/** What an MCP client's configuration file holds for the sample. */
function clientConfigOf(url: string, headers?: Record<string, string>) {
  return { mcpServers: { catalog: { type: 'http', url, ...(headers && { headers }) } } };
}

/**
 * `SAMPLE_ADAPTER=fastify` serves the same app on Fastify (`@nestjs/platform-fastify`,
 * loaded only then); the default is Express.
 */
async function createApp(adapter = 'express'): Promise<INestApplication> {
  if (adapter === 'fastify') {
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    return NestFactory.create(AppModule, new FastifyAdapter());
  }
  if (adapter !== 'express') {
    throw new Error(`SAMPLE_ADAPTER must be express or fastify, not ${adapter}`);
  }
  return NestFactory.create(AppModule);
}

void bootstrap();
