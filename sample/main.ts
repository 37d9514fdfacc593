import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule, MCP_PATH } from './app.module.js';
import { loadSampleConfig } from './sample.config.js';

async function bootstrap(): Promise<void> {
  const config = loadSampleConfig();
  const app = await NestFactory.create(AppModule);
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

void bootstrap();
