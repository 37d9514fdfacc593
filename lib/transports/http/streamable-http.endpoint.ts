import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TransportContext } from '../../execution/tool-call.js';
import type { McpServerHost } from '../../protocol/mcp-server.host.js';

/** An HTTP request as it reaches the endpoint, its JSON body already parsed by the platform. */
export type ParsedHttpRequest = IncomingMessage & { body?: unknown };

/**
 * The Streamable HTTP endpoint of one MCP server, serving both protocol eras from one
 * path through the SDK: 2026-07-28 requests statelessly, 2025-era clients through the
 * SDK's stateless legacy leg (initialize handshake, GET/DELETE answered 405).
 */
export class StreamableHttpEndpoint {
  private readonly logger = new Logger('McpModule');
  /**
   * The SDK creates a server per request through a factory that knows nothing of the
   * platform request; this store hands the request to it, and so to guards, request
   * scope and `@Req()` in tools.
   */
  private readonly transportContext = new AsyncLocalStorage<TransportContext>();
  private readonly handler: McpHttpHandler;
  private readonly nodeHandler: ReturnType<typeof toNodeHandler>;

  constructor(host: McpServerHost) {
    this.handler = createMcpHandler(
      ({ era }) => host.servers.create(era, this.transportContext.getStore() ?? {}),
      {
        legacy: 'stateless',
        onerror: (error) => this.logger.debug(`MCP request rejected or failed: ${error.message}`),
      },
    );
    this.nodeHandler = toNodeHandler(this.handler, {
      onerror: (error) => this.logger.error(`MCP endpoint failed: ${error.stack ?? error.message}`),
    });
  }

  handle(request: ParsedHttpRequest, response: ServerResponse): Promise<void> {
    return this.transportContext.run({ request, response }, () =>
      this.nodeHandler(request, response, request.body),
    );
  }

  close(): Promise<void> {
    return this.handler.close();
  }
}
