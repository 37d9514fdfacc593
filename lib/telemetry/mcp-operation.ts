import type {
  Attributes,
  AttributeValue,
  Context,
  Link,
  Span,
  TextMapGetter,
} from '@opentelemetry/api';
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

function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
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
  private readonly attributes: Attributes = {};
  private readonly startedAt = performance.now();
  private ended = false;

  constructor(
    private readonly telemetry: McpTelemetry,
    private readonly facts: OperationFacts,
  ) {
    const { api, options } = telemetry;
    const { method, id, params, peer } = facts;
    const set = (key: string, value: AttributeValue | undefined) => {
      if (value !== undefined) this.attributes[key] = value;
    };
    set(ATTR.MCP_METHOD_NAME, method);
    if (id !== undefined && id !== null) set(ATTR.JSONRPC_REQUEST_ID, String(id));
    let target: string | undefined;
    if (method === 'tools/call') {
      set(ATTR.GEN_AI_OPERATION_NAME, EXECUTE_TOOL);
      set(ATTR.GEN_AI_TOOL_NAME, stringOf(params?.name));
      if (options.recordArguments)
        set(ATTR.GEN_AI_TOOL_CALL_ARGUMENTS, json(params?.arguments ?? {}));
      if (facts.knownTarget) target = stringOf(params?.name);
    } else if (method === 'prompts/get') {
      set(ATTR.GEN_AI_PROMPT_NAME, stringOf(params?.name));
      if (facts.knownTarget) target = stringOf(params?.name);
    } else if (RESOURCE_METHODS.has(method)) {
      set(ATTR.MCP_RESOURCE_URI, stringOf(params?.uri));
      if (options.resourceUriInSpanName) target = stringOf(params?.uri);
    }
    set(ATTR.MCP_SESSION_ID, facts.sessionId);
    set(ATTR.NETWORK_TRANSPORT, peer.transport);
    set(ATTR.NETWORK_PROTOCOL_NAME, peer.protocolName);
    set(ATTR.NETWORK_PROTOCOL_VERSION, peer.protocolVersion);
    set(ATTR.CLIENT_ADDRESS, peer.address);
    set(ATTR.CLIENT_PORT, peer.port);

    const active = api.context.active();
    const meta = params?._meta;
    // The conventions: the client's context from `_meta` is the parent, and the ambient one
    // (an instrumented HTTP server's span) a link; without `_meta`, the ambient one parents.
    const parent = isRecord(meta) ? api.propagation.extract(active, meta, META_GETTER) : active;
    const tracer = telemetry.currentTracer();
    if (!tracer) {
      this.context = parent;
      return;
    }
    const ambient = api.trace.getSpanContext(active);
    const links: Link[] =
      ambient && api.isSpanContextValid(ambient) && api.trace.getSpanContext(parent) !== ambient
        ? [{ context: ambient }]
        : [];
    this.span = tracer.startSpan(
      target === undefined ? method : `${method} ${target}`,
      { kind: api.SpanKind.SERVER, attributes: this.attributes, links },
      parent,
    );
    this.context = api.trace.setSpan(parent, this.span);
  }

  /** Runs `serve` in this operation's context, so that what it starts is a child of the span. */
  run(serve: () => void): void {
    this.telemetry.api.context.with(this.context, serve);
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
      if (result.isError === true) this.fail(TOOL_ERROR);
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
    const version = this.facts.protocolVersion();
    if (version !== undefined) {
      this.attributes[ATTR.MCP_PROTOCOL_VERSION] = version;
      this.span?.setAttribute(ATTR.MCP_PROTOCOL_VERSION, version);
    }
    this.span?.end();
    const instruments = this.telemetry.currentInstruments();
    if (!instruments) return;
    const measured: Attributes = {};
    for (const key of OPERATION_METRIC_ATTRIBUTES) {
      if (this.attributes[key] !== undefined) measured[key] = this.attributes[key];
    }
    if (!this.facts.knownTarget) {
      delete measured[ATTR.GEN_AI_TOOL_NAME];
      delete measured[ATTR.GEN_AI_PROMPT_NAME];
    }
    instruments.operationDuration.record((performance.now() - this.startedAt) / 1000, measured);
  }
}
