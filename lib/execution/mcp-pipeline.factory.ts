import { Inject, Injectable } from '@nestjs/common';
import { ContextIdFactory, ExternalContextCreator, ModuleRef, type ContextId } from '@nestjs/core';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_ARGS_METADATA, MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { REQUEST_CONTEXT_ID } from '../utils/nest-internals.js';
import { withMcpFilters } from './mcp-filters.js';
import { withControllerHost } from './controller-host.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import type { McpInvocation } from './mcp-invocation.js';

/** Runs a decorated method for one call through the Nest pipeline; resolves to what it returned. */
export type McpPipeline = (invocation: McpInvocation) => Promise<unknown>;

type PipelineHandler = (...args: unknown[]) => Promise<unknown>;

/** Enhancers an MCP call runs through, as on an HTTP route. */
const ENHANCERS = { guards: true, interceptors: true, filters: true };

/** A call whose guards already ran where the caller is (a task on a queue's worker). */
const CHECKED_ENHANCERS = { guards: false, interceptors: true, filters: true };

/** What the pipeline of one method runs besides the method. */
export interface McpPipelineOptions {
  /** `false`: interceptors, pipes and filters only (the guards ran in the request). */
  guards?: boolean;
}

/**
 * Binds a decorated method (tool, prompt, resource) to the Nest pipeline once, at
 * bootstrap: `ExternalContextCreator` with context type `'mcp'` (guards → interceptors →
 * pipes → method → filters). Request-scoped providers get a new instance per call.
 */
@Injectable()
export class McpPipelineFactory {
  private readonly paramsFactory = new McpParamsFactory();
  private readonly pipeline: ExternalContextCreator;

  constructor(
    externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    @Inject(MCP_MODULE_OPTIONS) options: McpModuleOptions,
  ) {
    this.pipeline = withMcpFilters(externalContextCreator, {
      globalFilters: options.useGlobalFilters !== false,
    });
  }

  create(method: DiscoveredMethod, options: McpPipelineOptions = {}): McpPipeline {
    const enhancers = options.guards === false ? CHECKED_ENHANCERS : ENHANCERS;
    if (method.wrapper.isDependencyTreeStatic()) {
      const handler = this.createHandler(method, method.wrapper.instance as object, enhancers);
      return (call) => handler(...call.handlerArgs());
    }
    return async (call) => {
      const handler = await this.createScopedHandler(method, call, enhancers);
      return handler(...call.handlerArgs());
    };
  }

  /**
   * A request-scoped provider gets a new instance per call. Over HTTP it shares the
   * request's context id, so it sees the same request-scoped providers as the route's
   * middleware and guards; `REQUEST` resolves to the HTTP request (or the call where there
   * is none).
   */
  private async createScopedHandler(
    method: DiscoveredMethod,
    call: McpInvocation,
    enhancers: typeof ENHANCERS,
  ): Promise<PipelineHandler> {
    const request = (call.httpRequest ?? call) as Record<PropertyKey, unknown>;
    const contextId =
      (request[REQUEST_CONTEXT_ID] as ContextId | undefined) ?? this.attachContextId(request);
    const instance = await this.moduleRef.resolve(method.wrapper.token, contextId, {
      strict: false,
    });
    return this.createHandler(method, instance as object, enhancers, contextId);
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
    method: DiscoveredMethod,
    instance: object,
    enhancers: typeof ENHANCERS,
    contextId?: ContextId,
  ): PipelineHandler {
    const callable = (instance as Record<string, (...args: unknown[]) => unknown>)[
      method.methodName
    ];
    return withControllerHost(this.pipeline, method.wrapper).create(
      instance,
      callable,
      method.methodName,
      MCP_ARGS_METADATA,
      this.paramsFactory,
      contextId,
      method.wrapper.id,
      enhancers,
      MCP_CONTEXT_TYPE,
    );
  }
}
