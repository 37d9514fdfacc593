import type { Provider, Type } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import type { McpModuleOptions } from '../../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import { ProtocolRuntime } from '../../protocol/protocol.runtime.js';
import { endpointPathMatcher } from './express-body.middleware.js';
import {
  MCP_HTTP_CONTROLLER,
  MCP_HTTP_ENDPOINT,
  MCP_RESOURCE_SERVER,
} from './mcp-http.constants.js';
import { routeControllerAt, type McpHttpController } from './mcp-http.controller.js';
import { attachToPlatform } from './mcp-http.platform.js';
import { serveProtectedResourceMetadata } from './protected-resource.routes.js';
import { serveServerCards } from './server-card.routes.js';
import { ServerCardSource } from './server-card.source.js';
import { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/** The route path of a registration's endpoint, with the app's global prefix. */
export const routePathOf = (options: McpModuleOptions, appConfig: ApplicationConfig) => () =>
  `${appConfig.getGlobalPrefix()}/${(options.http || undefined)?.path ?? DEFAULT_HTTP_PATH}`;

/**
 * The endpoint of a registration, its OAuth resource server (with `auth`) and the route of
 * its controller. Factories run while instances are created, and Nest registers routes
 * only after that, so options from `forRootAsync` decide the route as well as those of
 * `forRoot`.
 */
export const mcpHttpProviders: Provider[] = [
  {
    provide: MCP_RESOURCE_SERVER,
    inject: [MCP_MODULE_OPTIONS, ProtocolRuntime, ApplicationConfig],
    useFactory: (
      options: McpModuleOptions,
      server: ProtocolRuntime,
      appConfig: ApplicationConfig,
    ) =>
      options.http !== false && options.auth
        ? new OAuthResourceServer(options.auth, {
            routePath: routePathOf(options, appConfig),
            namedScopes: () => server.namedScopes(),
            allowedHosts: options.http?.allowedHosts,
          })
        : null,
  },
  {
    provide: MCP_HTTP_ENDPOINT,
    inject: [
      MCP_MODULE_OPTIONS,
      ProtocolRuntime,
      MCP_RESOURCE_SERVER,
      MCP_HTTP_CONTROLLER,
      HttpAdapterHost,
      ApplicationConfig,
    ],
    useFactory: (
      options: McpModuleOptions,
      server: ProtocolRuntime,
      resourceServer: OAuthResourceServer | null,
      controller: Type<McpHttpController>,
      adapterHost: HttpAdapterHost,
      appConfig: ApplicationConfig,
    ) => {
      if (options.http === false) return null;
      routeControllerAt(controller, options.http?.path ?? DEFAULT_HTTP_PATH);
      const routePath = routePathOf(options, appConfig);
      const endpoint = new StreamableHttpEndpoint(
        server,
        options.http,
        resourceServer ?? undefined,
      );
      // The adapter is set before `app.init()` registers body parsers and routes (at once
      // with NestFactory.create, later with a testing module): `init$` replays it.
      const matcher = endpointPathMatcher(routePath);
      adapterHost.init$.subscribe(() => {
        const adapter = adapterHost.httpAdapter;
        if (!adapter) return;
        attachToPlatform(adapter, endpoint, {
          isEndpointRequest: matcher,
          routeMarker: controller,
        });
        if (resourceServer) {
          const resource = options.auth?.resource;
          serveProtectedResourceMetadata(adapter, {
            resourceServer,
            resourcePaths: () => [routePath(), ...(resource ? [new URL(resource).pathname] : [])],
          });
        }
        if (options.discovery && options.discovery.card !== false) {
          serveServerCards(
            adapter,
            new ServerCardSource(server, routePath, resourceServer ?? undefined),
          );
        }
      });
      return endpoint;
    },
  },
];
