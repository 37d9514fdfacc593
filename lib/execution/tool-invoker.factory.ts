import {
  isInputRequiredResult,
  ProtocolError,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { Injectable, Logger } from '@nestjs/common';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { ToolCallEventsPublisher } from './tool-call-events.publisher.js';
import { pipelinePhase, validationPhase } from './call-phases.js';
import type { DetachedResponse } from '../context/detached-response.js';
import type { McpCall } from './mcp-call.js';
import { McpInvocation, type InvocationObserver } from './mcp-invocation.js';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import { McpPipelineFactory, type McpPipelineOptions } from './mcp-pipeline.factory.js';
import { VisibilityFactory } from './visibility.factory.js';
import { toolErrorToResult } from './tool-error.mapper.js';
import { normalizeToolResult } from './tool-result.normalizer.js';
import { reportUnexpectedError } from './unexpected-error.reporter.js';

/** The seconds a rate limiter (`@nestjs/throttler`) asked the caller to wait, if any. */
function retryAfterOf(response: DetachedResponse): number | undefined {
  const retryAfter = Object.entries(response.getHeaders()).find(([name]) =>
    name.startsWith('retry-after'),
  )?.[1];
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * Runs one tool call end to end and always answers with a `tools/call` result; `observer`
 * hears when the method is reached (the task runner detaches the call then).
 */
export type ToolInvoker = (
  call: McpCall,
  observer?: InvocationObserver,
) => Promise<CallToolResult | InputRequiredResult>;

/**
 * A task tool split for a queue (`tasks.queue`): `check` runs in the request (guards, then
 * the arguments) and resolves to the error result the caller gets, or `undefined` when the
 * call may be queued; `run` is the call on the worker, without the guards.
 */
export interface QueuedToolInvoker {
  readonly check: (call: McpCall) => Promise<CallToolResult | undefined>;
  readonly run: ToolInvoker;
}

/**
 * Binds each discovered tool to the Nest pipeline once, at bootstrap. Every transport
 * calls the same invoker: validation of the arguments, then the pipeline (guards →
 * interceptors → pipes → method → filters), then the result normaliser, with any error
 * mapped to an `isError` result.
 */
@Injectable()
export class ToolInvokerFactory {
  private readonly logger = new Logger(ToolInvokerFactory.name);

  constructor(
    private readonly pipelines: McpPipelineFactory,
    private readonly events: ToolCallEventsPublisher,
    private readonly visibility: VisibilityFactory,
  ) {}

  /** @param options `guards: false` for a call whose guards ran elsewhere (a queued task). */
  create(tool: DiscoveredTool, options: McpPipelineOptions = {}): ToolInvoker {
    const pipeline = this.pipelines.create(tool, options);
    return async (call, observer = {}) => {
      const startedAt = performance.now();
      let executed = false;
      let outcome: CallToolResult | InputRequiredResult;
      try {
        // Validated before the pipeline but raised where pipes run (see McpParamsFactory),
        // so guards still decide first what a caller learns.
        const validation = await validationPhase(call, () => tool.checkArguments(call.arguments));
        const invocation = McpInvocation.of(call, validation, {
          methodReached: observer.methodReached,
          argumentsTaken: () => (executed = true),
        });
        const returned = await pipelinePhase(call, () => pipeline(invocation));
        // A multi round-trip answer (`inputRequired(...)`) goes to the SDK as it is.
        outcome = isInputRequiredResult(returned)
          ? returned
          : normalizeToolResult(returned, { structured: tool.outputValidator !== undefined });
      } catch (error) {
        // A task records a JSON-RPC error the method throws as `failed` (the task runner).
        if (call.taskBinding && error instanceof ProtocolError) throw error;
        outcome = this.errorResult(tool, call, error);
      }
      // A declared output is checked last, error results included (ToolOutputValidator).
      if (isInputRequiredResult(outcome)) return outcome;
      const result = tool.outputValidator?.apply(outcome, call.era) ?? outcome;
      if (executed) this.events.afterResponse(call, result, startedAt);
      return result;
    };
  }

  /** The tool split for a queue: checked in the request, run on a worker. */
  createQueued(tool: DiscoveredTool): QueuedToolInvoker {
    const guards = this.visibility.createGuardCheck(tool);
    const check = async (call: McpCall) => {
      try {
        await guards?.(call);
        const validation = await tool.checkArguments(call.arguments);
        if (validation.ok) return undefined;
        throw new InvalidArgumentsError(call.name, validation.issues, 'tool');
      } catch (error) {
        const outcome = this.errorResult(tool, call, error);
        return tool.outputValidator?.apply(outcome, call.era) ?? outcome;
      }
    };
    return { check, run: this.create(tool, { guards: false }) };
  }

  /** What a caller gets for an error: the same result whichever step raised it. */
  private errorResult(tool: DiscoveredTool, call: McpCall, error: unknown): CallToolResult {
    return toolErrorToResult(
      error,
      (unexpected) =>
        reportUnexpectedError(
          this.logger,
          `Tool "${call.name}"`,
          tool,
          unexpected,
          call.signal.aborted,
        ),
      { retryAfterSeconds: retryAfterOf(call.detachedResponse) },
      call.texts,
    );
  }
}
