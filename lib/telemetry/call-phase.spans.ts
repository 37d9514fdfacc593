import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { CallPhases } from '../execution/call-phases.js';
import type { McpTelemetry } from './mcp-telemetry.js';

/**
 * The phases of one call as child spans of its request's span: `validate arguments`,
 * `guards` (with the interceptors and pipes that run before the method) and `method`.
 * The pipeline itself runs in the request's context, so spans the app starts in its
 * method are children of the request, not of an ended phase.
 */
export class CallPhaseSpans implements CallPhases {
  private guards?: Span;
  private method?: Span;

  private constructor(
    private readonly telemetry: McpTelemetry,
    private readonly tracer: Tracer,
    private readonly parent: Context,
  ) {}

  /** Phase spans for a call served now, when asked for and inside a recorded request. */
  static of(telemetry: McpTelemetry): CallPhaseSpans | undefined {
    if (!telemetry.options.phaseSpans) return undefined;
    const tracer = telemetry.currentTracer();
    const parent = telemetry.api.context.active();
    if (!tracer || !telemetry.api.trace.getSpan(parent)?.isRecording()) return undefined;
    return new CallPhaseSpans(telemetry, tracer, parent);
  }

  async validation<T>(run: () => T | Promise<T>): Promise<T> {
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

  async pipeline<T>(run: () => Promise<T>): Promise<T> {
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
