import {
  Controller,
  Delete,
  Get,
  Inject,
  NotFoundException,
  Post,
  Req,
  Res,
  UseGuards,
  type Type,
} from '@nestjs/common';
import { PATH_METADATA } from '../../utils/nest-internals.js';
import { FASTIFY_ROUTE_CONFIG_METADATA, MCP_ENDPOINT_ROUTE } from './fastify-route.hook.js';
import { toHttpExchange } from './http-exchange.factory.js';
import { McpEndpointGuard } from './mcp-endpoint.guard.js';
import { MCP_HTTP_ENDPOINT } from './mcp-http.constants.js';
import type { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/**
 * The MCP endpoint as a real Nest route, on Express and Fastify alike: it gets the global
 * prefix, middleware, global guards and the guards of `http.guards` (through
 * {@link McpEndpointGuard}), which run before any MCP processing. The response belongs to
 * the endpoint (`@Res()`), which answers GET and DELETE with 405.
 */
export abstract class McpHttpController {
  constructor(
    @Inject(MCP_HTTP_ENDPOINT) private readonly endpoint: StreamableHttpEndpoint | null,
  ) {}

  protected handle(request: object, response: object): Promise<void> {
    // `http: false` from an async factory: the route exists (routes are fixed before
    // factories run) but answers as if it did not.
    if (!this.endpoint) {
      const { method, url } = request as { method?: string; url?: string };
      throw new NotFoundException(`Cannot ${method} ${url}`);
    }
    return this.endpoint.handle(toHttpExchange(request, response));
  }
}

/** The route methods of a controller made by {@link createMcpHttpController}. */
const MCP_ROUTE_METHODS = ['post', 'get', 'delete'] as const;

/**
 * A controller class of its own for each `McpModule` registration, so that its path,
 * guards and route options belong to that server alone: the route methods are declared
 * here, not inherited, because route metadata lives on the method functions. Each route
 * carries the class in its Fastify route config, which the registration's `onRoute` hook
 * looks for (`fastify-route.hook.ts`).
 */
export function createMcpHttpController(): Type<McpHttpController> {
  @Controller()
  @UseGuards(McpEndpointGuard)
  class McpEndpointController extends McpHttpController {
    @Post()
    post(@Req() request: object, @Res() response: object): Promise<void> {
      return this.handle(request, response);
    }

    @Get()
    get(@Req() request: object, @Res() response: object): Promise<void> {
      return this.handle(request, response);
    }

    @Delete()
    delete(@Req() request: object, @Res() response: object): Promise<void> {
      return this.handle(request, response);
    }
  }
  for (const method of MCP_ROUTE_METHODS) {
    Reflect.defineMetadata(
      FASTIFY_ROUTE_CONFIG_METADATA,
      { [MCP_ENDPOINT_ROUTE]: McpEndpointController },
      McpEndpointController.prototype[method],
    );
  }
  return McpEndpointController;
}

/**
 * Puts a registration's controller at the path its options give. Nest registers routes
 * once every provider exists, and the options of `forRootAsync()` exist only then: so the
 * path is set by the endpoint's provider, the one piece of route metadata not known when
 * the class is made.
 */
export function routeControllerAt(controller: Type<McpHttpController>, path: string): void {
  Reflect.defineMetadata(PATH_METADATA, path, controller);
}
