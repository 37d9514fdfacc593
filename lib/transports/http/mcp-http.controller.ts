import {
  Controller,
  Delete,
  Get,
  Inject,
  NotFoundException,
  Post,
  Req,
  Res,
  type Type,
} from '@nestjs/common';
import { toHttpExchange } from './http-exchange.factory.js';
import { MCP_HTTP_ENDPOINT } from './mcp-http.constants.js';
import type { StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/**
 * The MCP endpoint as a real Nest route, on Express and Fastify alike: it gets the global
 * prefix, middleware, global guards and the guards of `http.guards`, which run before any
 * MCP processing. The response belongs to the endpoint (`@Res()`), which answers GET and
 * DELETE with 405.
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

/**
 * A controller class of its own for each `McpModule` registration, so that its path,
 * guards and route options (Fastify), known only once the options are resolved, belong to
 * that server alone: the route methods are declared here, not inherited, because route
 * metadata lives on the method functions.
 */
export function createMcpHttpController(): Type<McpHttpController> {
  @Controller()
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
  return McpEndpointController;
}

/** The route methods of a controller made by {@link createMcpHttpController}. */
export const MCP_ROUTE_METHODS = ['post', 'get', 'delete'] as const;
