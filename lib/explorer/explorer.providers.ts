import { Logger, type OnApplicationBootstrap, type Provider } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import {
  explorerAssetsMissingMessage,
  explorerAtMessage,
  explorerOffInProductionMessage,
} from '../messages/explorer.messages.js';
import type { OAuthResourceServer } from '../oauth/oauth-resource.server.js';
import { ProtocolRuntime } from '../protocol/protocol.runtime.js';
import { MCP_RESOURCE_SERVER } from '../transports/http/mcp-http.constants.js';
import { routePathOf } from '../transports/http/mcp-http.providers.js';
import { explorerAssets } from './explorer-assets.js';
import { explorerMountOf } from './explorer-mount.js';
import { serveExplorer } from './explorer.routes.js';
import { ExplorerSource } from './explorer.source.js';

/** The explorer of a registration: what announces it once the app is up. */
export const MCP_EXPLORER = Symbol('MCP_EXPLORER');

/**
 * The explorer of a registration (docs/explorer.md), when it has one: its routes join the
 * app's platform as soon as the HTTP adapter is known, and a log line says where it is once
 * the app is up, global prefix included.
 */
export const mcpExplorerProvider: Provider = {
  provide: MCP_EXPLORER,
  inject: [
    MCP_MODULE_OPTIONS,
    ProtocolRuntime,
    MCP_RESOURCE_SERVER,
    HttpAdapterHost,
    ApplicationConfig,
  ],
  useFactory: (
    options: McpModuleOptions,
    server: ProtocolRuntime,
    resourceServer: OAuthResourceServer | null,
    adapterHost: HttpAdapterHost,
    appConfig: ApplicationConfig,
  ): OnApplicationBootstrap => {
    const logger = new Logger('McpExplorer');
    const mount = explorerMountOf(options);
    if (typeof mount === 'string') {
      return {
        onApplicationBootstrap: () => {
          if (mount === 'production') logger.debug(explorerOffInProductionMessage(options.name));
        },
      };
    }
    const source = new ExplorerSource(
      server,
      routePathOf(options, appConfig),
      () => appConfig.getGlobalPrefix(),
      mount,
      resourceServer ?? undefined,
    );
    // An application context (stdio, the CLI) has no HTTP adapter: nothing is served there.
    let served = false;
    adapterHost.init$.subscribe(() => {
      if (!adapterHost.httpAdapter) return;
      serveExplorer(adapterHost.httpAdapter, source);
      served = true;
    });
    return {
      onApplicationBootstrap: () => {
        if (!served) return;
        if (explorerAssets.directory === undefined) {
          logger.warn(explorerAssetsMissingMessage(options.name, explorerAssets.directories));
        }
        logger.log(explorerAtMessage(source.path()));
      },
    };
  },
};
