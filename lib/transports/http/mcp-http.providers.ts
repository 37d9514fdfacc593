import type { CanActivate, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { McpModuleOptions } from '../../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { McpServerHost } from '../../protocol/mcp-server.host.js';
import { GUARDS_METADATA, PATH_METADATA } from '../../utils/nest-internals.js';
import { MCP_HTTP_CONTROLLER, MCP_HTTP_ENDPOINT } from './mcp-http.constants.js';
import { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/** A guard given as a class is the app's provider when it has one, else made through DI. */
async function resolveGuard(
  moduleRef: ModuleRef,
  guard: Type<CanActivate> | CanActivate,
): Promise<CanActivate> {
  if (typeof guard !== 'function') return guard;
  try {
    return moduleRef.get(guard, { strict: false });
  } catch {
    return moduleRef.create(guard);
  }
}

/**
 * Creates the endpoint and gives the registration's controller its path and guards.
 * Factories run while instances are created, and Nest registers routes only after that,
 * so options from `forRootAsync` decide the route as well as those of `forRoot`.
 */
export const mcpHttpProviders: Provider[] = [
  {
    provide: MCP_HTTP_ENDPOINT,
    inject: [MCP_MODULE_OPTIONS, McpServerHost, ModuleRef, MCP_HTTP_CONTROLLER],
    useFactory: async (
      options: McpModuleOptions,
      host: McpServerHost,
      moduleRef: ModuleRef,
      controller: Type,
    ) => {
      if (options.http === false) return null;
      const guards = await Promise.all(
        (options.http?.guards ?? []).map((guard) => resolveGuard(moduleRef, guard)),
      );
      Reflect.defineMetadata(PATH_METADATA, options.http?.path ?? DEFAULT_HTTP_PATH, controller);
      Reflect.defineMetadata(GUARDS_METADATA, guards, controller);
      return new StreamableHttpEndpoint(host, options.http);
    },
  },
];
