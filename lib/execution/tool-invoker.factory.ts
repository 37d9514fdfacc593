import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { ToolCallEventsPublisher } from './tool-call-events.publisher.js';
import { pipelinePhase, validationPhase } from './call-phases.js';
import type { DetachedResponse } from '../context/detached-response.js';
import type { McpCall } from './mcp-call.js';
import { McpInvocation, type InvocationObserver } from './mcp-invocation.js';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import {
  McpPipelineFactory,
  type McpPipeline,
  type McpPipelineOptions,
} from './mcp-pipeline.factory.js';
import {
  effectiveToolLimits,
  ToolDeadline,
  ToolLimiter,
  ToolTimeoutError,
  untilAborted,
  type ToolLimits,
  type ToolSlot,
} from './tool-limits.js';
import { VisibilityFactory } from './visibility.factory.js';
import { say, TOOL_TIMEOUT, toolErrorToResult } from './tool-error.mapper.js';
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

  /** Each bound tool's limits and counter (see `limitsOf`). */
  private readonly limits = new WeakMap<
    DiscoveredTool,
    { limits?: ToolLimits; limiter?: ToolLimiter }
  >();

  constructor(
    private readonly pipelines: McpPipelineFactory,
    private readonly events: ToolCallEventsPublisher,
    private readonly visibility: VisibilityFactory,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
  ) {}

  /** @param options `guards: false` for a call whose guards ran elsewhere (a queued task). */
  create(tool: DiscoveredTool, options: McpPipelineOptions = {}): ToolInvoker {
    const pipeline = this.pipelines.create(tool, options);
    const run = (call: McpCall, observer: InvocationObserver, deadline?: ToolDeadline) =>
      this.run(tool, pipeline, call, observer, deadline);
    const { limits, limiter } = this.limitsOf(tool);
    // A tool without limits costs nothing more: no signal, no timer, no count.
    if (!limits) return (call, observer = {}) => run(call, observer);
    // A limited call is answered, and its slot freed, as soon as its time runs out or its
    // client cancels, whether or not the method honours its signal.
    const { timeoutMs } = limits;
    return async (call, observer = {}) => {
      let slot: ToolSlot | undefined;
      try {
        slot = limiter && (await this.slotFor(limiter, call));
      } catch (error) {
        return await this.answer(tool, call, error);
      }
      const deadline =
        timeoutMs === undefined ? undefined : new ToolDeadline(call.name, timeoutMs, call.signal);
      const limited = deadline ? call.withSignal(deadline.signal) : call;
      try {
        return await untilAborted(call.signal, run(limited, observer, deadline));
      } catch (error) {
        return await this.answer(tool, limited, error);
      } finally {
        deadline?.clear();
        slot?.release();
      }
    };
  }

  /**
   * The limits this server applies to `tool` (its own, else the `tools` option) and the
   * counter of its running calls, made once per tool: the invoker of a request and the
   * one of a queue's worker (`createQueued`) share them.
   */
  limitsOf(tool: DiscoveredTool): { limits?: ToolLimits; limiter?: ToolLimiter } {
    let known = this.limits.get(tool);
    if (!known) {
      const limits = effectiveToolLimits(tool.limits, this.options.tools, tool.task !== undefined);
      const concurrency = limits?.concurrency;
      known = {
        ...(limits && { limits }),
        ...(concurrency && { limiter: new ToolLimiter(tool.definition.name, concurrency) }),
      };
      this.limits.set(tool, known);
    }
    return known;
  }

  /** A slot for the call, once its turn comes; the wait is told to telemetry. */
  private async slotFor(limiter: ToolLimiter, call: McpCall): Promise<ToolSlot> {
    const granted = limiter.acquire(call.identity, () => call.signal);
    if (!(granted instanceof Promise)) return granted;
    const { slot, waitedMs } = await granted;
    call.phases?.queued?.(waitedMs);
    return slot;
  }

  /**
   * An error that ends a limited call before its method answered (refused, timed out,
   * cancelled): as a result, or as a `ProtocolError` for a task, which fails with it.
   */
  private async answer(tool: DiscoveredTool, call: McpCall, error: unknown) {
    const task = call.taskBinding;
    if (task && error instanceof ProtocolError) throw error;
    if (task && error instanceof ToolTimeoutError) {
      const message = say(call.texts, 'toolTimedOut', {
        name: error.tool,
        timeoutMs: error.timeoutMs,
      });
      // The reason shows in `tasks/get` as well as in the task's error.
      await task.setStatus(message).catch(() => undefined);
      throw new ProtocolError(ProtocolErrorCode.InternalError, message, { error: TOOL_TIMEOUT });
    }
    return this.checkedErrorResult(tool, call, error);
  }

  /** One call through validation, the pipeline and the normaliser, answered with a result. */
  private async run(
    tool: DiscoveredTool,
    pipeline: McpPipeline,
    call: McpCall,
    observer: InvocationObserver,
    deadline: ToolDeadline | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
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
      // The deadline starts once the arguments are checked: guards and the method count.
      const returned = await pipelinePhase(call, () =>
        deadline ? deadline.race(pipeline(invocation)) : pipeline(invocation),
      );
      // A multi round-trip answer (`inputRequired(...)`) goes to the SDK as it is.
      outcome = isInputRequiredResult(returned)
        ? returned
        : normalizeToolResult(returned, { structured: tool.outputValidator !== undefined });
    } catch (error) {
      // A task records a JSON-RPC error the method throws as `failed` (the task runner),
      // and its deadline too (`answer`).
      if (call.taskBinding && (error instanceof ProtocolError || error instanceof ToolTimeoutError))
        throw error;
      outcome = this.errorResult(tool, call, error);
    }
    // A declared output is checked last, error results included (ToolOutputValidator).
    if (isInputRequiredResult(outcome)) return outcome;
    const result = tool.outputValidator?.apply(outcome, call.era) ?? outcome;
    if (executed) this.events.afterResponse(call, result, startedAt);
    return result;
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
        return this.checkedErrorResult(tool, call, error);
      }
    };
    return { check, run: this.create(tool, { guards: false }) };
  }

  /** The error result of a call that ends before its method answered, checked as every result. */
  private checkedErrorResult(tool: DiscoveredTool, call: McpCall, error: unknown): CallToolResult {
    const outcome = this.errorResult(tool, call, error);
    return tool.outputValidator?.apply(outcome, call.era) ?? outcome;
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
