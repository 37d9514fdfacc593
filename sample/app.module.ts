import { Logger, Module, ValidationPipe } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpModule, type McpModuleOptions } from 'nestjs-mcp';
import { BearerTokenGuard } from './auth/bearer-token.guard.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { CatalogAuditExtension } from './catalog/catalog-audit.extension.js';
import { ToolAuditLog } from './catalog/tool-audit.log.js';
import { loadSampleConfig, type SampleConfig } from './sample.config.js';

/** The route of the MCP endpoint: `http://127.0.0.1:3000/mcp`. */
export const MCP_PATH = 'mcp';

/**
 * The translation files: `mcp.de.yaml` for every server, `catalog/mcp.de.yaml` for this one.
 * Beside this file, so the sources (vitest) and dist-sample/ (`npm start`, which copies them)
 * both find theirs.
 */
export const TRANSLATIONS_DIR = fileURLToPath(new URL('i18n', import.meta.url));

/**
 * The MCP Apps views, each one self-contained HTML file built by `npm run build:sample`
 * (scripts/build-sample.mjs) from sample/views/. They exist only in dist-sample/, the sibling of
 * both this file's directories, so the sources (vitest) and the compiled sample read the same
 * build: build the sample after changing a view.
 */
export const VIEWS_DIR = fileURLToPath(new URL('../dist-sample/views/', import.meta.url));

/** The header of the token mode, as the Server Card describes it: where the token goes. */
const TOKEN_HEADER = {
  name: 'Authorization',
  description: 'A bearer token of the catalog',
  value: 'Bearer {token}',
  isRequired: true,
  isSecret: true,
  variables: { token: { description: 'Your API token', isRequired: true, isSecret: true } },
};

/**
 * The options of the MCP server. By default `BearerTokenGuard` admits the two static tokens. With
 * `SAMPLE_OAUTH_ISSUER` set, the endpoint is an OAuth resource server instead (`auth`): it
 * publishes its metadata, verifies the issuer's JWT access tokens, and `@McpScopes()` reads
 * their scopes (`catalog.read`, `catalog.write`).
 */
export function catalogMcpOptions(config: SampleConfig): McpModuleOptions {
  const server = {
    name: 'catalog',
    version: '1.0.0',
    // `mcp://catalog/manifest`: the tools the reader of it may call, with the scopes each needs.
    manifest: true,
    // A call that runs past 30 s is stopped and answered with a timeout error, so a stuck
    // dependency cannot hold a caller forever; reindex_catalog runs as a task, bounded by its
    // ttlMs instead (docs/tools.md, "Time and concurrency limits").
    tools: { timeoutMs: 30_000 },
    instructions:
      'Tools for the product catalog of an online shop selling books, electronics, garden, ' +
      'kitchen and toy products. Use search_products to find products and their ids, then ' +
      'get_product for the details of one. Prices are in EUR. create_product and ' +
      'delete_product change the catalog and need the catalog.write scope, as does ' +
      'reindex_catalog, which rebuilds the search index in a few seconds.',
    // German beside English: `Accept-Language: de` gets the texts of i18n/*.yaml, any other
    // language the English of the code (docs/i18n.md).
    i18n: { defaultLocale: 'en', translations: TRANSLATIONS_DIR },
    // get_product's answer rendered as a card by hosts of MCP Apps (docs/apps.md). Its CSP
    // names no domain: the card loads nothing and connects nowhere (what no `csp` means too,
    // said here so that hosts and readers see it in `_meta.ui.csp`).
    apps: {
      views: {
        'product-card': {
          file: join(VIEWS_DIR, 'product-card.html'),
          title: 'Product card',
          description: 'A product with its price and stock, and a button to restock it.',
          csp: { connectDomains: [], resourceDomains: [] },
          prefersBorder: true,
        },
      },
    },
    // What anyone may read before connecting (docs/discovery.md): the Server Card at
    // /mcp/server-card, listed in /.well-known/ai-catalog.json, and `nestjs-mcp server-json`.
    discovery: {
      name: 'com.example/catalog',
      title: 'Product catalog',
      description: 'Search and read the product catalog of an online shop.',
    },
  };
  if (!config.oauth) {
    return {
      ...server,
      http: { path: MCP_PATH, guards: [BearerTokenGuard] },
      // The card says which header BearerTokenGuard reads; with OAuth it links to the metadata.
      discovery: { ...server.discovery, headers: [TOKEN_HEADER] },
    };
  }

  const { issuer, audience } = config.oauth;
  // With PORT=0 the port is not known yet: the library then derives the URL from each
  // request, when it names one of the hosts of `allowedHosts` (never any other host).
  const resource =
    config.oauth.resource ??
    (config.port ? `http://${config.host}:${config.port}/${MCP_PATH}` : undefined);
  new Logger('Sample').log(
    `OAuth mode: the MCP endpoint accepts access tokens of ${issuer} for ${resource ?? 'its URL'}`,
  );
  const allowedHosts = [...new Set(['localhost', '127.0.0.1', '[::1]', config.host])];
  return {
    ...server,
    http: { path: MCP_PATH, ...(resource === undefined && { allowedHosts }) },
    auth: {
      authorizationServers: [issuer],
      resource,
      audience,
      // RFC 9068 tokens are typed at+jwt; Keycloak and Entra ID type theirs JWT. The audience
      // check keeps ID tokens out either way.
      tokenTypes: ['at+jwt', 'JWT'],
      resourceName: 'Product catalog',
    },
  };
}

/**
 * With `SAMPLE_REDIS_URL`, the options of one instance among several on that Redis
 * (docs/scale-out.md): changes and tasks are shared, `reindex_catalog` runs on the BullMQ
 * queue `mcp-tasks`, and the state of multi round-trip calls is signed with the secret every
 * instance has. 2025-era clients get sessions (resource subscriptions, resumable streams),
 * which stay on the instance that opened them: the load balancer routes each session to the
 * instance its id starts with.
 * `nestjs-mcp/redis` is imported only then, so the sample without Redis never loads ioredis
 * or BullMQ.
 */
export async function withScaleOut(
  options: McpModuleOptions,
  config: SampleConfig,
): Promise<McpModuleOptions> {
  if (!config.scaleOut) return options;
  const { redisUrl, stateSecret, instanceId, taskLockMs } = config.scaleOut;
  const { RedisScaleOut } = await import('nestjs-mcp/redis');
  return {
    ...options,
    http: { ...options.http, legacySessions: true },
    scaleOut: new RedisScaleOut({
      connection: redisUrl,
      ...(instanceId && { instanceId }),
      ...(taskLockMs && { queue: { lockDurationMs: taskLockMs } }),
    }),
    requestState: { secret: stateSecret },
    tasks: { ...options.tasks, queue: 'mcp-tasks' },
  };
}

@Module({
  imports: [
    // A factory, so that the settings are read when the app starts.
    McpModule.forRootAsync({
      useFactory: () => {
        const config = loadSampleConfig();
        return withScaleOut(catalogMcpOptions(config), config);
      },
    }),
    CatalogModule,
  ],
  providers: [
    ToolAuditLog,
    // The company's audit extension: com.example/audit.recent (docs/extensions.md).
    CatalogAuditExtension,
    // The app's global validation, as most Nest apps have it. REST query strings need the
    // implicit conversion (`?limit=5` → 5). It also runs on tool arguments, after the
    // library's own DTO validation.
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
        transformOptions: { enableImplicitConversion: true },
      }),
    },
  ],
})
export class AppModule {}
