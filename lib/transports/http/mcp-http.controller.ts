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
import type { ServerResponse } from 'node:http';
import { MCP_HTTP_ENDPOINT } from './mcp-http.constants.js';
import type { ParsedHttpRequest, StreamableHttpEndpoint } from './streamable-http.endpoint.js';

/**
 * The MCP endpoint as a real Nest route: it gets the global prefix, middleware, global
 * guards and the guards of `http.guards`, which run before any MCP processing. The
 * response belongs to the SDK (`@Res()`), which answers GET and DELETE with 405.
 */
@Controller()
export class McpHttpController {
  constructor(
    @Inject(MCP_HTTP_ENDPOINT) private readonly endpoint: StreamableHttpEndpoint | null,
  ) {}

  @Post()
  post(@Req() request: ParsedHttpRequest, @Res() response: ServerResponse): Promise<void> {
    return this.handle(request, response);
  }

  @Get()
  get(@Req() request: ParsedHttpRequest, @Res() response: ServerResponse): Promise<void> {
    return this.handle(request, response);
  }

  @Delete()
  delete(@Req() request: ParsedHttpRequest, @Res() response: ServerResponse): Promise<void> {
    return this.handle(request, response);
  }

  private handle(request: ParsedHttpRequest, response: ServerResponse): Promise<void> {
    // `http: false` from an async factory: the route exists (routes are fixed before
    // factories run) but answers as if it did not.
    if (!this.endpoint) throw new NotFoundException(`Cannot ${request.method} ${request.url}`);
    return this.endpoint.handle(request, response);
  }
}

/**
 * A controller class of its own for each `McpModule` registration, so that its path and
 * guards, known only once the options are resolved, belong to that server alone.
 */
export function createMcpHttpController(): Type<McpHttpController> {
  @Controller()
  class McpEndpointController extends McpHttpController {}
  return McpEndpointController;
}
