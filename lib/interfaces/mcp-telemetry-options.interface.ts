/**
 * OpenTelemetry spans and metrics for MCP requests. They are on whenever the app registers
 * a tracer or meter provider with `@opentelemetry/api`; `telemetry: false` turns them off.
 * See docs/observability.md.
 */
export interface McpTelemetryOptions {
  /**
   * Records `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` (as JSON strings) on
   * `tools/call` spans. They may hold personal data: opt in only where the trace backend
   * may keep it.
   * @default false
   */
  recordArguments?: boolean;
  /**
   * Names resource spans by their URI (`resources/read catalog://products/42`); without it
   * the URI is only an attribute, so that span names stay few.
   * @default false
   */
  resourceUriInSpanName?: boolean;
  /**
   * Child spans for the phases of a `tools/call`, `prompts/get` or `resources/read` that
   * cost time: `validate arguments`, `guards` (with the interceptors and pipes that run
   * before the method) and `method`.
   * @default false
   */
  phaseSpans?: boolean;
}
