import type { CallToolResult } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ContextIdFactory, ExternalContextCreator, ModuleRef, type ContextId } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { MCP_ARGS_METADATA } from '../discovery/tool-parameters.reader.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { REQUEST_CONTEXT_ID, withoutGlobalFilters } from '../utils/nest-internals.js';
import { ToolCallEventsPublisher } from '../events/tool-call-events.publisher.js';
import type { DetachedResponse } from './detached-response.js';
import { DtoArgumentsValidator, type ArgumentsValidation } from './dto-arguments.validator.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import type { ToolCall } from './tool-call.js';
import { toolErrorToResult } from './tool-error.mapper.js';
import { normalizeToolResult } from './tool-result.normalizer.js';

/** The seconds a rate limiter (`@nestjs/throttler`) asked the caller to wait, if any. */
function retryAfterOf(response: DetachedResponse): number | undefined {
  const retryAfter = Object.entries(response.getHeaders()).find(([name]) =>
    name.startsWith('retry-after'),
  )?.[1];
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** Runs one tool call end to end and always answers with a `tools/call` result. */
export type ToolInvoker = (call: ToolCall) => Promise<CallToolResult>;

type PipelineHandler = (...args: unknown[]) => Promise<unknown>;

/** Enhancers an MCP call runs through, as on an HTTP route. */
const ENHANCERS = { guards: true, interceptors: true, filters: true };

/**
 * Binds each discovered tool to the Nest pipeline once, at bootstrap. Every transport
 * calls the same invoker: validation of the arguments, then `ExternalContextCreator`
 * (guards → interceptors → pipes → method → filters), then the result normaliser, with
 * any error mapped to an `isError` result.
 */
@Injectable()
export class ToolInvokerFactory {
  private readonly logger = new Logger('McpModule');
  private readonly paramsFactory = new McpParamsFactory();
  private readonly validator = new DtoArgumentsValidator();

  private readonly pipeline: ExternalContextCreator;

  constructor(
    externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly events: ToolCallEventsPublisher,
    @Inject(MCP_MODULE_OPTIONS) options: McpModuleOptions,
  ) {
    this.pipeline =
      options.useGlobalFilters === false
        ? withoutGlobalFilters(externalContextCreator)
        : externalContextCreator;
  }

  create(tool: DiscoveredTool): ToolInvoker {
    const handlerFor = this.handlerResolver(tool);
    return async (call) => {
      const startedAt = performance.now();
      const outcome = await this.run(tool, handlerFor, call);
      // A declared output is checked last, error results included (ToolOutputValidator).
      const result = tool.outputValidator?.apply(outcome, call.era) ?? outcome;
      if (call.executed) this.events.afterResponse(call, result, startedAt);
      return result;
    };
  }

  private async run(
    tool: DiscoveredTool,
    handlerFor: (call: ToolCall) => PipelineHandler | Promise<PipelineHandler>,
    call: ToolCall,
  ): Promise<CallToolResult> {
    try {
      // Validated before the pipeline but raised where pipes run (see McpParamsFactory),
      // so guards still decide first what a caller learns.
      call.validation = await this.validate(tool, call.arguments);
      const handler = await handlerFor(call);
      return normalizeToolResult(await handler(...call.handlerArgs()), {
        structured: tool.outputValidator !== undefined,
      });
    } catch (error) {
      return toolErrorToResult(error, (unexpected) => this.reportUnexpected(tool, unexpected), {
        retryAfterSeconds: retryAfterOf(call.detachedResponse),
      });
    }
  }

  private handlerResolver(
    tool: DiscoveredTool,
  ): (call: ToolCall) => PipelineHandler | Promise<PipelineHandler> {
    if (tool.wrapper.isDependencyTreeStatic()) {
      const handler = this.createHandler(tool, tool.wrapper.instance as object);
      return () => handler;
    }
    return (call) => this.createScopedHandler(tool, call);
  }

  /**
   * A request-scoped tool gets a new instance per call. Over HTTP it shares the request's
   * context id, so it sees the same request-scoped providers as the route's middleware
   * and guards; `REQUEST` resolves to the HTTP request (or the call where there is none).
   */
  private async createScopedHandler(
    tool: DiscoveredTool,
    call: ToolCall,
  ): Promise<PipelineHandler> {
    const request = (call.httpRequest ?? call) as Record<PropertyKey, unknown>;
    const contextId =
      (request[REQUEST_CONTEXT_ID] as ContextId | undefined) ?? this.attachContextId(request);
    const instance = await this.moduleRef.resolve(tool.wrapper.token, contextId, { strict: false });
    return this.createHandler(tool, instance as object, contextId);
  }

  private attachContextId(request: Record<PropertyKey, unknown>): ContextId {
    const contextId = ContextIdFactory.getByRequest(request);
    Object.defineProperty(request, REQUEST_CONTEXT_ID, {
      value: contextId,
      enumerable: false,
      configurable: false,
      writable: false,
    });
    this.moduleRef.registerRequestByContextId(request, contextId);
    return contextId;
  }

  private createHandler(
    tool: DiscoveredTool,
    instance: object,
    contextId?: ContextId,
  ): PipelineHandler {
    const method = (instance as Record<string, (...args: unknown[]) => unknown>)[tool.methodName];
    return this.pipeline.create(
      instance,
      method,
      tool.methodName,
      MCP_ARGS_METADATA,
      this.paramsFactory,
      contextId,
      tool.wrapper.id,
      ENHANCERS,
      MCP_CONTEXT_TYPE,
    );
  }

  private async validate(
    tool: DiscoveredTool,
    args: Readonly<Record<string, unknown>>,
  ): Promise<ArgumentsValidation<object | undefined>> {
    return tool.dto
      ? this.validator.validate(tool.dto, args, tool.argumentsCheck)
      : this.validator.validateNoArguments(args);
  }

  private reportUnexpected(tool: DiscoveredTool, error: unknown): string {
    const reference = randomUUID().slice(0, 8);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.logger.error(
      `Tool "${tool.definition.name}" (${tool.where}) failed [ref ${reference}]: ${detail}`,
    );
    return reference;
  }
}
