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
import type { DetachedResponse } from './detached-response.js';
import type { McpCall } from './mcp-call.js';
import { McpPipelineFactory } from './mcp-pipeline.factory.js';
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

/** Runs one tool call end to end and always answers with a `tools/call` result. */
export type ToolInvoker = (call: McpCall) => Promise<CallToolResult | InputRequiredResult>;

/**
 * Binds each discovered tool to the Nest pipeline once, at bootstrap. Every transport
 * calls the same invoker: validation of the arguments, then the pipeline (guards →
 * interceptors → pipes → method → filters), then the result normaliser, with any error
 * mapped to an `isError` result.
 */
@Injectable()
export class ToolInvokerFactory {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly pipelines: McpPipelineFactory,
    private readonly events: ToolCallEventsPublisher,
  ) {}

  create(tool: DiscoveredTool): ToolInvoker {
    const pipeline = this.pipelines.create(tool);
    return async (call) => {
      const startedAt = performance.now();
      let outcome: CallToolResult | InputRequiredResult;
      try {
        // Validated before the pipeline but raised where pipes run (see McpParamsFactory),
        // so guards still decide first what a caller learns.
        call.validation = await validationPhase(call, () => tool.checkArguments(call.arguments));
        const returned = await pipelinePhase(call, () => pipeline(call));
        // A multi round-trip answer (`inputRequired(...)`) goes to the SDK as it is.
        outcome = isInputRequiredResult(returned)
          ? returned
          : normalizeToolResult(returned, { structured: tool.outputValidator !== undefined });
      } catch (error) {
        // A task records a JSON-RPC error the method throws as `failed` (the task runner).
        if (call.taskBinding && error instanceof ProtocolError) throw error;
        outcome = toolErrorToResult(
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
      // A declared output is checked last, error results included (ToolOutputValidator).
      if (isInputRequiredResult(outcome)) return outcome;
      const result = tool.outputValidator?.apply(outcome, call.era) ?? outcome;
      if (call.executed) this.events.afterResponse(call, result, startedAt);
      return result;
    };
  }
}
