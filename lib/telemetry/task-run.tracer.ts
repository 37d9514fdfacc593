import type { Span } from '@opentelemetry/api';
import { ATTR, CANCELLED, EXECUTE_TOOL, TOOL_ERROR } from './mcp-semantic-conventions.js';
import { TOOL_TIMEOUT } from '../execution/tool-error.mapper.js';
import type { McpTelemetry } from './mcp-telemetry.js';

const isTimeout = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && (data as { error?: unknown }).error === TOOL_TIMEOUT;

/**
 * The id of the task a span runs. The MCP conventions name no attribute for tasks yet;
 * this one follows their `mcp.*` namespace and is this library's own.
 */
const MCP_TASK_ID = 'mcp.task.id';

/** What a task run's span needs to know when the run ends. */
export interface TaskRunOutcome {
  readonly status: string;
  readonly isError?: boolean;
  readonly errorCode?: number;
  /** The `data` of the task's error: `{ error: 'tool_timeout' }` for a run its tool's `timeoutMs` stopped. */
  readonly errorData?: unknown;
}

/** The span of one task's run, ended with its outcome. */
export interface TaskRunTrace {
  end(outcome: TaskRunOutcome | undefined): void;
}

/**
 * Starts the span of a task's run (issue: "a task gets a span for its run, linked to the
 * request that created it"). The run outlives the `tools/call` that started it, so its
 * span is a root of its own, linked to that request's span (OpenTelemetry's guidance for
 * work that continues after its trigger), not its child. `undefined` while no tracer
 * provider is registered.
 */
export function traceTaskRun(
  telemetry: McpTelemetry,
  taskId: string,
  toolName: string,
): TaskRunTrace | undefined {
  const tracer = telemetry.currentTracer();
  if (!tracer) return undefined;
  const { api } = telemetry;
  const trigger = api.trace.getActiveSpan()?.spanContext();
  const span: Span = tracer.startSpan(`tasks/run ${toolName}`, {
    kind: api.SpanKind.INTERNAL,
    root: true,
    links: trigger ? [{ context: trigger }] : [],
    attributes: {
      [ATTR.GEN_AI_OPERATION_NAME]: EXECUTE_TOOL,
      [ATTR.GEN_AI_TOOL_NAME]: toolName,
      [MCP_TASK_ID]: taskId,
    },
  });
  return {
    end(outcome) {
      const errorType =
        outcome === undefined
          ? 'lost'
          : isTimeout(outcome.errorData)
            ? TOOL_TIMEOUT
            : outcome.errorCode !== undefined
              ? String(outcome.errorCode)
              : outcome.isError
                ? TOOL_ERROR
                : outcome.status === 'cancelled'
                  ? CANCELLED
                  : undefined;
      if (errorType !== undefined) {
        span.setAttribute(ATTR.ERROR_TYPE, errorType);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
