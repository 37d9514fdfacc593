import type { Provider, Type } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { McpModuleOptions } from '../../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { McpServerHost } from '../../servers/mcp-server.host.js';
import { GUARDS_METADATA, PATH_METADATA } from '../../utils/nest-internals.js';
import { resolveGuard } from '../guard.resolver.js';
import { endpointPathMatcher } from './express-body.middleware.js';
import { FASTIFY_ROUTE_CONFIG_METADATA, MCP_ENDPOINT_ROUTE } from './fastify-route.hook.js';
import { MCP_HTTP_CONTROLLER, MCP_HTTP_ENDPOINT } from './mcp-http.constants.js';
import { MCP_ROUTE_METHODS } from './mcp-http.controller.js';
import { attachToPlatform } from './mcp-http.platform.js';
import { McpOAuthGuard } from '../../oauth/mcp-oauth.guard.js';
import { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import { serveProtectedResourceMetadata } from './protected-resource.routes.js';
import { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/**
 * Creates the endpoint and gives the registration's controller its path and guards.
 * Factories run while instances are created, and Nest registers routes only after that,
 * so options from `forRootAsync` decide the route as well as those of `forRoot`.
 */
export const mcpHttpProviders: Provider[] = [
  {
    provide: MCP_HTTP_ENDPOINT,
    inject: [
      MCP_MODULE_OPTIONS,
      McpServerHost,
      ModuleRef,
      MCP_HTTP_CONTROLLER,
      HttpAdapterHost,
      ApplicationConfig,
    ],
    useFactory: async (
      options: McpModuleOptions,
      host: McpServerHost,
      moduleRef: ModuleRef,
      controller: Type,
      adapterHost: HttpAdapterHost,
      appConfig: ApplicationConfig,
    ) => {
      if (options.http === false) return null;
      const guards = await Promise.all(
        (options.http?.guards ?? []).map((guard) => resolveGuard(moduleRef, guard)),
      );
      const path = options.http?.path ?? DEFAULT_HTTP_PATH;
      const routePath = () => `${appConfig.getGlobalPrefix()}/${path}`;
      // With `auth`, the token is verified first, so the app's guards see `request.user`.
      const resourceServer =
        options.auth &&
        new OAuthResourceServer(options.auth, { routePath, namedScopes: () => host.namedScopes() });
      if (resourceServer) guards.unshift(new McpOAuthGuard(resourceServer));
      Reflect.defineMetadata(PATH_METADATA, path, controller);
      Reflect.defineMetadata(GUARDS_METADATA, guards, controller);
      const endpoint = new StreamableHttpEndpoint(host, options.http, resourceServer);
      // Marks this registration's routes for its Fastify `onRoute` hook (ignored on Express).
      for (const method of MCP_ROUTE_METHODS) {
        Reflect.defineMetadata(
          FASTIFY_ROUTE_CONFIG_METADATA,
          { [MCP_ENDPOINT_ROUTE]: endpoint },
          controller.prototype[method],
        );
      }
      // The adapter is set before `app.init()` registers body parsers and routes (at once
      // with NestFactory.create, later with a testing module): `init$` replays it.
      const matcher = endpointPathMatcher(routePath);
      adapterHost.init$.subscribe(() => {
        const adapter = adapterHost.httpAdapter;
        if (!adapter) return;
        attachToPlatform(adapter, endpoint, matcher);
        if (resourceServer) {
          const resource = options.auth?.resource;
          serveProtectedResourceMetadata(adapter, {
            resourceServer,
            resourcePaths: () => [routePath(), ...(resource ? [new URL(resource).pathname] : [])],
          });
        }
      });
      return endpoint;
    },
  },
];
