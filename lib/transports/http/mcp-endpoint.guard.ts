import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { isObservable, lastValueFrom } from 'rxjs';
import type { McpModuleOptions } from '../../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { McpOAuthGuard } from '../../oauth/mcp-oauth.guard.js';
import type { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import { resolveGuard } from '../guard.resolver.js';
import { MCP_RESOURCE_SERVER } from './mcp-http.constants.js';

/**
 * The guards of one server's endpoint, run in order as Nest runs a route's guards: with
 * `auth`, the verification of the bearer token first (so the app's guards see
 * `request.user`), then `http.guards`. A guard class is the app's own provider when it has
 * one, looked up on the first request, once every provider of the app exists (a lookup
 * while providers are still being created can find one not made yet).
 */
@Injectable()
export class McpEndpointGuard implements CanActivate {
  private guards?: Promise<CanActivate[]>;

  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
    @Inject(MCP_RESOURCE_SERVER) private readonly resourceServer: OAuthResourceServer | null,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    this.guards ??= this.resolve();
    for (const guard of await this.guards) {
      const answer = guard.canActivate(context);
      // A guard that says no stops the others; Nest answers 403 as for a route's guard.
      if (!(await (isObservable(answer) ? lastValueFrom(answer) : answer))) return false;
    }
    return true;
  }

  private async resolve(): Promise<CanActivate[]> {
    const { http } = this.options;
    const configured = http === false ? [] : (http?.guards ?? []);
    const guards = await Promise.all(
      configured.map((guard) => resolveGuard(this.moduleRef, guard)),
    );
    return this.resourceServer ? [new McpOAuthGuard(this.resourceServer), ...guards] : guards;
  }
}
