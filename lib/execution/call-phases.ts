/**
 * The phases of a call that cost time, for telemetry to time as child spans
 * (`telemetry.phaseSpans`). The Nest pipeline runs guards, interceptors and pipes before
 * the method; the moment the method's parameters are resolved divides the two.
 */
export interface CallPhases {
  /** The check of the arguments against the DTO. */
  validation<T>(run: () => T | Promise<T>): T | Promise<T>;
  /** The Nest pipeline: guards (and interceptors, pipes), then the method. */
  pipeline<T>(run: () => Promise<T>): Promise<T>;
  /** Guards and interceptors let the call through: the method's parameters are resolved. */
  methodReached(): void;
  /** The call waited `waitedMs` for a slot (`@McpTool({ concurrency })`) before it ran. */
  queued?(waitedMs: number): void;
}

/** What carries the phases: a call (`McpCall#phases`). */
interface Phased {
  readonly phases?: CallPhases;
}

/** Runs the argument validation of `call`, as a phase when its phases are timed. */
export const validationPhase = <T>(call: Phased, run: () => T | Promise<T>): T | Promise<T> =>
  call.phases ? call.phases.validation(run) : run();

/** Runs the Nest pipeline of `call`, as a phase when its phases are timed. */
export const pipelinePhase = <T>(call: Phased, run: () => Promise<T>): Promise<T> =>
  call.phases ? call.phases.pipeline(run) : run();
