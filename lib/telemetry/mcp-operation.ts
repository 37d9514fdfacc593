import type { Attributes, Context, Link, Span, TextMapGetter, Tracer } from '@opentelemetry/api';
import {
  METHOD_NOT_FOUND,
  type JSONRPCErrorResponse,
  type JSONRPCResultResponse,
} from '@modelcontextprotocol/server';
import {
  ATTR,
  EXECUTE_TOOL,
  OPERATION_METRIC_ATTRIBUTES,
  OTHER,
  RESOURCE_METHODS,
  TOOL_ERROR,
} from './mcp-semantic-conventions.js';
import { TOOL_CONCURRENCY_LIMIT, TOOL_TIMEOUT } from '../execution/tool-error.mapper.js';
import type { McpTelemetry } from './mcp-telemetry.js';
import type { PeerFacts } from './peer-facts.js';

/** What is known of one inbound request (or notification) when it arrives. */
export interface OperationFacts {
  readonly method: string;
  /** The JSON-RPC id; none for a notification. */
  readonly id?: string | number;
  readonly params?: Record<string, unknown>;
  /** The `Mcp-Session-Id` of a 2025 session. */
  readonly sessionId?: string;
  readonly peer: PeerFacts;
  /**
   * Whether `params.name` names a tool or prompt of the catalog. Only such names go into
   * span names and metrics: a client can send any name, and names there must stay few.
   */
  readonly knownTarget: boolean;
  /** Read when the operation ends, after `initialize` has negotiated it. */
  readonly protocolVersion: () => string | undefined;
}

/** The metric's attributes for a target the catalog does not have: no name, which a client chose. */
const UNNAMED_METRIC_ATTRIBUTES = OPERATION_METRIC_ATTRIBUTES.filter(
  (key) => key !== ATTR.GEN_AI_TOOL_NAME && key !== ATTR.GEN_AI_PROMPT_NAME,
);

/** Reads W3C `traceparent` / `tracestate` / `baggage` from `params._meta` (SEP-414). */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The `error.type`s of tool errors the library itself answers with, besides `tool_error`. */
const LIBRARY_TOOL_ERRORS: ReadonlySet<unknown> = new Set([TOOL_TIMEOUT, TOOL_CONCURRENCY_LIMIT]);

/**
 * The `error.type` of an `isError` result: a call its tool's limits stopped or refused is
 * told apart (its structured content says which); any other is `tool_error`. Only these few
 * values: a tool's own structured content must not make new ones.
 */
function toolErrorTypeOf(structuredContent: unknown): string {
  const error = isRecord(structuredContent) ? structuredContent.error : undefined;
  return LIBRARY_TOOL_ERRORS.has(error) ? (error as string) : TOOL_ERROR;
}

function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The span's attributes as the request arrives, and the target its name shows (see
 * {@link targetAttributes}).
 */
function startAttributes(
  facts: OperationFacts,
  options: McpTelemetry['options'],
): { attributes: Attributes; target: string | undefined } {
  const { method, id, peer } = facts;
  const attributes: Attributes = { [ATTR.MCP_METHOD_NAME]: method };
  if (id !== undefined && id !== null) attributes[ATTR.JSONRPC_REQUEST_ID] = String(id);
  const target = targetAttributes(facts, options, attributes);
  if (facts.sessionId !== undefined) attributes[ATTR.MCP_SESSION_ID] = facts.sessionId;
  attributes[ATTR.NETWORK_TRANSPORT] = peer.transport;
  if (peer.protocolName !== undefined) attributes[ATTR.NETWORK_PROTOCOL_NAME] = peer.protocolName;
  if (peer.protocolVersion !== undefined)
    attributes[ATTR.NETWORK_PROTOCOL_VERSION] = peer.protocolVersion;
  if (peer.address !== undefined) attributes[ATTR.CLIENT_ADDRESS] = peer.address;
  if (peer.port !== undefined) attributes[ATTR.CLIENT_PORT] = peer.port;
  // Known from the start but for `initialize`, which negotiates it (read again at the end).
  const version = facts.protocolVersion();
  if (version !== undefined) attributes[ATTR.MCP_PROTOCOL_VERSION] = version;
  return { attributes, target };
}

/**
 * Adds the tool, prompt or resource the request is for to `attributes`, and returns the
 * target the span name shows: a tool or prompt name only when the catalog has it, a
 * resource URI only when the options allow it (a client chooses both).
 */
function targetAttributes(
  { method, params, knownTarget }: OperationFacts,
  options: McpTelemetry['options'],
  attributes: Attributes,
): string | undefined {
  if (method === 'tools/call') {
    const name = stringOf(params?.name);
    attributes[ATTR.GEN_AI_OPERATION_NAME] = EXECUTE_TOOL;
    if (name !== undefined) attributes[ATTR.GEN_AI_TOOL_NAME] = name;
    if (options.recordArguments) {
      const recorded = json(params?.arguments ?? {});
      if (recorded !== undefined) attributes[ATTR.GEN_AI_TOOL_CALL_ARGUMENTS] = recorded;
    }
    return knownTarget ? name : undefined;
  }
  if (method === 'prompts/get') {
    const name = stringOf(params?.name);
    if (name !== undefined) attributes[ATTR.GEN_AI_PROMPT_NAME] = name;
    return knownTarget ? name : undefined;
  }
  if (RESOURCE_METHODS.has(method)) {
    const uri = stringOf(params?.uri);
    if (uri !== undefined) attributes[ATTR.MCP_RESOURCE_URI] = uri;
    return options.resourceUriInSpanName ? uri : undefined;
  }
  return undefined;
}

/**
 * One MCP request as OpenTelemetry sees it: the SERVER span named `{mcp.method.name}
 * {target}` (when a tracer provider is registered) and its `mcp.server.operation.duration`
 * (when a meter provider is), both ended by the answer.
 */
export class McpOperation {
  /** The context the request is served in: its span's, or the caller's when none records. */
  readonly context: Context;
  private readonly span?: Span;
  /** The span's attributes, which the metric's are taken from when the operation ends. */
  private readonly attributes: Attributes;
  /** Set only when no recording span keeps the time (the metric reads the span's duration). */
  private readonly startedAt?: number;
  private ended = false;

  constructor(
    private readonly telemetry: McpTelemetry,
    private readonly facts: OperationFacts,
    tracer: Tracer | undefined = telemetry.currentTracer(),
  ) {
    const { api } = telemetry;
    const { method, params } = facts;
    const { attributes, target } = startAttributes(facts, telemetry.options);
    this.attributes = attributes;

    const active = api.context.active();
    const meta = params?._meta;
    // The conventions: the client's context from `_meta` is the parent, and the ambient one
    // (an instrumented HTTP server's span) a link; without `_meta`, the ambient one parents.
    const parent = isRecord(meta) ? api.propagation.extract(active, meta, META_GETTER) : active;
    if (!tracer) {
      this.context = parent;
      this.startedAt = performance.now();
      return;
    }
    const ambient = api.trace.getSpanContext(active);
    const linked =
      ambient !== undefined &&
      api.trace.getSpanContext(parent) !== ambient &&
      api.isSpanContextValid(ambient);
    const span = tracer.startSpan(
      target === undefined ? method : `${method} ${target}`,
      linked
        ? { kind: api.SpanKind.SERVER, attributes, links: [{ context: ambient }] }
        : { kind: api.SpanKind.SERVER, attributes },
      parent,
    );
    this.span = span;
    if (!hasDuration(span)) this.startedAt = performance.now();
    this.context = api.trace.setSpan(parent, span);
  }

  /** Runs `serve` in this operation's context, so that what it starts is a child of the span. */
  run<A extends unknown[]>(serve: (...args: A) => void, ...args: A): void {
    this.telemetry.api.context.with(this.context, serve, undefined, ...args);
  }

  /** A link to this operation's span, for work it starts that outlives it. */
  link(): Link | undefined {
    return this.span && { context: this.span.spanContext() };
  }

  /** Ends with the answer sent; without one (a notification), as handled. */
  end(answer?: JSONRPCResultResponse | JSONRPCErrorResponse): void {
    if (this.ended) return;
    if (answer && 'error' in answer) {
      const code = String(answer.error.code);
      this.fail(code, answer.error.message);
      if (answer.error.code === METHOD_NOT_FOUND) {
        // A client names any method it likes: names that no handler serves are one name.
        this.attributes[ATTR.MCP_METHOD_NAME] = OTHER;
        this.span?.updateName(OTHER);
      }
      this.attributes[ATTR.RPC_RESPONSE_STATUS_CODE] = code;
      this.span?.setAttribute(ATTR.RPC_RESPONSE_STATUS_CODE, code);
    } else if (answer && this.facts.method === 'tools/call') {
      const result = answer.result as {
        isError?: unknown;
        structuredContent?: unknown;
        content?: unknown;
      };
      if (result.isError === true) this.fail(toolErrorTypeOf(result.structuredContent));
      else if (this.telemetry.options.recordArguments) {
        const recorded = json(result.structuredContent ?? result.content);
        if (recorded !== undefined) this.span?.setAttribute(ATTR.GEN_AI_TOOL_CALL_RESULT, recorded);
      }
    }
    this.finish();
  }

  /** Ends without an answer: `error.type` says why (cancelled, connection closed). */
  abandon(errorType: string): void {
    if (this.ended) return;
    this.fail(errorType);
    this.finish();
  }

  private fail(errorType: string, message?: string): void {
    this.attributes[ATTR.ERROR_TYPE] = errorType;
    this.span?.setAttribute(ATTR.ERROR_TYPE, errorType);
    // The conventions: ERROR whenever `error.type` is set, described by the JSON-RPC message.
    this.span?.setStatus({
      code: this.telemetry.api.SpanStatusCode.ERROR,
      ...(message !== undefined && { message }),
    });
  }

  private finish(): void {
    this.ended = true;
    const { attributes, span } = this;
    const version = this.facts.protocolVersion();
    if (version !== undefined && version !== attributes[ATTR.MCP_PROTOCOL_VERSION]) {
      attributes[ATTR.MCP_PROTOCOL_VERSION] = version;
      span?.setAttribute(ATTR.MCP_PROTOCOL_VERSION, version);
    }
    span?.end();
    const instruments = this.telemetry.currentInstruments();
    if (!instruments) return;
    instruments.operationDuration.record(this.seconds(), this.measured(attributes));
  }

  /** The span's own duration when it keeps one, so that span and metric agree. */
  private seconds(): number {
    if (this.startedAt !== undefined) return (performance.now() - this.startedAt) / 1000;
    const [seconds, nanos] = (this.span as unknown as TimedSpan).duration;
    return seconds + nanos / 1e9;
  }

  /**
   * The attributes of `mcp.server.operation.duration`: those of the span that stay few, and
   * a tool or prompt name only when the catalog has it.
   */
  private measured(attributes: Attributes): Attributes {
    const measured: Attributes = {};
    const keys = this.facts.knownTarget ? OPERATION_METRIC_ATTRIBUTES : UNNAMED_METRIC_ATTRIBUTES;
    for (const key of keys) {
      const value = attributes[key];
      if (value !== undefined) measured[key] = value;
    }
    return measured;
  }
}

/** An SDK span (`ReadableSpan`): its `duration` is set when it ends. */
interface TimedSpan {
  readonly duration: readonly [number, number];
}

const hasDuration = (span: Span): boolean =>
  Array.isArray((span as Partial<TimedSpan>).duration) && span.isRecording();
