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
  const clientConfig = {
    mcpServers: {
      catalog: { type: 'http', url, headers: { Authorization: `Bearer ${config.adminToken}` } },
    },
  };
  const logger = new Logger('Sample');
  logger.log(`MCP endpoint: ${url} (REST API: ${await app.getUrl()}/products)`);
  logger.log(`Reader token: ${config.readerToken} (search_products, get_product)`);
  logger.log(`Admin token: ${config.adminToken} (every tool)`);
  logger.log(`MCP client configuration:\n${JSON.stringify(clientConfig, null, 2)}`);
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
