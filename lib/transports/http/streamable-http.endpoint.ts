import { createMcpHandler, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TransportContext } from '../../execution/mcp-call.js';
import type { McpServerHost } from '../../protocol/mcp-server.host.js';
import type { McpHttpOptions } from '../../interfaces/mcp-module-options.interface.js';
import { DnsRebindingProtection } from './dns-rebinding.protection.js';
import { writeWebResponse } from './web-response.writer.js';

/** An HTTP request as it reaches the endpoint, its JSON body already parsed by the platform. */
export type ParsedHttpRequest = IncomingMessage & { body?: unknown; auth?: AuthInfo };

const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/**
 * The Streamable HTTP endpoint of one MCP server, serving both protocol eras from one
 * path through the SDK: 2026-07-28 requests statelessly, 2025-era clients through the
 * SDK's stateless legacy leg (initialize handshake, GET/DELETE answered 405).
 */
export class StreamableHttpEndpoint {
  private readonly logger = new Logger('McpModule');
  /**
   * The SDK builds a server per request through a factory that receives the web `Request`
   * it was given (`requestInfo`); this map leads from it to the platform request and
   * response, and so to guards, request scope and `@Req()` in tools. (An
   * `AsyncLocalStorage` would do the same but turns on promise hooks for the whole
   * process: bench/README.md measured +0.2 ms per request.)
   */
  private readonly transports = new WeakMap<Request, TransportContext>();
  private readonly handler: McpHttpHandler;

  private readonly dnsRebinding: DnsRebindingProtection;

  constructor(host: McpServerHost, options: McpHttpOptions = {}) {
    this.dnsRebinding = new DnsRebindingProtection(options);
    this.handler = createMcpHandler(
      ({ era, requestInfo }) =>
        host.servers.create(era, (requestInfo && this.transports.get(requestInfo)) ?? {}),
      {
        legacy: 'stateless',
        onerror: (error) => this.logger.debug(`MCP request rejected or failed: ${error.message}`),
      },
    );
  }

  async handle(request: ParsedHttpRequest, response: ServerResponse): Promise<void> {
    const clientGone = new AbortController();
    let answered = false;
    response.on('close', () => {
      if (!answered) clientGone.abort();
    });
    const answer = await this.fetch(request, response, clientGone.signal);
    try {
      await writeWebResponse(answer, response, clientGone.signal);
    } catch (error) {
      // The answer is owned by this endpoint: a failed write (the socket went away) ends
      // here, never in the app's HTTP exception handling.
      this.logger.debug(`MCP answer not fully written: ${(error as Error).message}`);
      response.destroy();
    }
    answered = true;
  }

  private async fetch(
    request: ParsedHttpRequest,
    response: ServerResponse,
    signal: AbortSignal,
  ): Promise<Response> {
    const rejected = this.dnsRebinding.check(request);
    if (rejected) return rejected;
    try {
      const webRequest = await toWebRequest(request, request.body, { signal });
      this.transports.set(webRequest, { request, response });
      return await this.handler.fetch(webRequest, {
        ...(request.body !== undefined && { parsedBody: request.body }),
        ...(request.auth !== undefined && { authInfo: request.auth }),
      });
    } catch (error) {
      // Raised while reading a body the platform did not parse (not JSON): over the limit.
      if ((error as { name?: string }).name === 'RequestBodyTooLargeError') {
        return jsonRpcError(413, -32000, (error as Error).message);
      }
      this.logger.error(`MCP endpoint failed: ${(error as Error).stack ?? String(error)}`);
      return jsonRpcError(500, -32603, 'Internal error');
    }
  }

  close(): Promise<void> {
    return this.handler.close();
  }
}
