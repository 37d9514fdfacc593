import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Subject, type Observable } from 'rxjs';
import { MCP_TOOL_CALLED_EVENT, type McpToolCalledEvent } from './mcp-tool-called.event.js';

interface EventEmitterLike {
  emit(event: string, payload: unknown): unknown;
}

/**
 * The events of the MCP server, as an injectable stream: subscribe to `toolCalled` for an
 * audit log, metrics or billing. When the app uses `@nestjs/event-emitter`
 * (`EventEmitterModule.forRoot()`), each event is also emitted as `'mcp.tool.called'`, so
 * `@OnEvent('mcp.tool.called')` listeners receive it.
 * @publicApi
 */
@Injectable()
export class McpEvents implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(McpEvents.name);
  private readonly toolCalls = new Subject<McpToolCalledEvent>();
  private emitter?: EventEmitterLike;

  /** One event per executed tool call, after its response was sent. */
  readonly toolCalled: Observable<McpToolCalledEvent> = this.toolCalls.asObservable();

  constructor(private readonly moduleRef: ModuleRef) {}

  async onModuleInit(): Promise<void> {
    // An optional peer: used when installed and registered, never required.
    try {
      const { EventEmitter2 } = await import('@nestjs/event-emitter');
      this.emitter = this.moduleRef.get(EventEmitter2, { strict: false });
    } catch {
      this.emitter = undefined;
    }
  }

  /** @internal Whether anyone listens, so that calls build no event for nobody. */
  get listened(): boolean {
    return this.toolCalls.observed || this.emitter !== undefined;
  }

  /** @internal */
  publishToolCalled(event: McpToolCalledEvent): void {
    this.toolCalls.next(event);
    try {
      this.emitter?.emit(MCP_TOOL_CALLED_EVENT, event);
    } catch (error) {
      this.logger.error(`A listener of ${MCP_TOOL_CALLED_EVENT} failed: ${String(error)}`);
    }
  }

  onModuleDestroy(): void {
    this.toolCalls.complete();
  }
}
