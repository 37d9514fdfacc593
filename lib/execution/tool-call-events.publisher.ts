import type { CallToolResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { McpCall } from './mcp-call.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { McpEvents } from '../events/mcp-events.js';

/**
 * Publishes the event of an executed call once its response was sent: over HTTP when the
 * response finishes, elsewhere on the next turn of the event loop. Publishing never delays
 * or changes the answer.
 */
@Injectable()
export class ToolCallEventsPublisher {
  constructor(
    private readonly events: McpEvents,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
  ) {}

  afterResponse(call: McpCall, result: CallToolResult, startedAt: number): void {
    if (!this.events.listened) return;
    const event = {
      server: this.options.name,
      tool: call.name,
      caller: (call.httpRequest as { user?: unknown } | undefined)?.user,
      durationMs: performance.now() - startedAt,
      outcome: result.isError ? ('error' as const) : ('success' as const),
      era: call.era,
      requestId: call.requestId,
      arguments: call.arguments,
      at: new Date(),
    };
    const publish = () => this.events.publishToolCalled(event);
    const response = call.httpResponse as ServerResponse | undefined;
    if (response && typeof response.once === 'function' && !response.writableFinished) {
      response.once('close', publish);
    } else {
      setImmediate(publish);
    }
  }
}
