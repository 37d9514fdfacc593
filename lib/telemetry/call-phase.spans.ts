import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { CallPhases } from '../execution/call-phases.js';
import type { McpTelemetry } from './mcp-telemetry.js';

/**
 * The event on a `tools/call` span when the call waited for a slot of its tool
 * (`@McpTool({ concurrency })`), and its attribute: the wait in seconds. The MCP conventions
 * name neither; they follow their `mcp.*` namespace and are this library's own.
 */
export const QUEUED_EVENT = 'mcp.tool.queued';
export const QUEUE_WAIT_ATTRIBUTE = 'mcp.tool.queue.wait_duration';

/**
 * The phases of one call as child spans of its request's span: `validate arguments`,
 * `guards` (with the interceptors and pipes that run before the method) and `method`.
 * The pipeline itself runs in the request's context, so spans the app starts in its
 * method are children of the request, not of an ended phase. Without `phaseSpans`, only
 * the wait for a slot is recorded, on the request's span.
 */
export class CallPhaseSpans implements CallPhases {
  private guards?: Span;
  private method?: Span;

  private constructor(
    private readonly telemetry: McpTelemetry,
    private readonly tracer: Tracer,
    private readonly parent: Context,
    private readonly spans: boolean,
  ) {}

  /** The phases of a call served now, inside a recorded request. */
  static of(telemetry: McpTelemetry): CallPhaseSpans | undefined {
    const tracer = telemetry.currentTracer();
    const parent = telemetry.api.context.active();
    if (!tracer || !telemetry.api.trace.getSpan(parent)?.isRecording()) return undefined;
    return new CallPhaseSpans(telemetry, tracer, parent, telemetry.options.phaseSpans === true);
  }

  queued(waitedMs: number): void {
    const span = this.telemetry.api.trace.getSpan(this.parent);
    const seconds = waitedMs / 1000;
    span?.setAttribute(QUEUE_WAIT_ATTRIBUTE, seconds);
    span?.addEvent(QUEUED_EVENT, { [QUEUE_WAIT_ATTRIBUTE]: seconds });
  }

  // Without `phaseSpans` the phases run as they are: no span, no promise of their own.
  validation<T>(run: () => T | Promise<T>): T | Promise<T> {
    return this.spans ? this.timedValidation(run) : run();
  }

  pipeline<T>(run: () => Promise<T>): Promise<T> {
    return this.spans ? this.timedPipeline(run) : run();
  }

  private async timedValidation<T>(run: () => T | Promise<T>): Promise<T> {
    const span = this.start('validate arguments');
    try {
      return await run();
    } catch (error) {
      this.failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  private async timedPipeline<T>(run: () => Promise<T>): Promise<T> {
    this.guards = this.start('guards');
    try {
      return await run();
    } catch (error) {
      this.failed(this.method ?? this.guards, error);
      throw error;
    } finally {
      (this.method ?? this.guards).end();
    }
  }

  methodReached(): void {
    if (this.method || !this.guards) return;
    this.guards.end();
    this.method = this.start('method');
  }

  private start(name: string): Span {
    return this.tracer.startSpan(name, {}, this.parent);
  }

  private failed(span: Span, error: unknown): void {
    const { api } = this.telemetry;
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: api.SpanStatusCode.ERROR });
  }
}
