import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  inputResponse,
  type InputResponseView,
  type LoggingLevel,
  type ProgressToken,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InvalidArgumentsError } from '../errors/invalid-arguments.error.js';
import type {
  McpCallContext,
  McpPhase,
  McpPrimitiveKind,
} from '../interfaces/mcp-call-context.interface.js';
import type { CallPhases } from './call-phases.js';
import { DetachedResponse } from './detached-response.js';
import type { ArgumentsValidation } from '../validation/dto-arguments.validator.js';

/** What a transport knows about the caller: the platform request and response, if any. */
export interface TransportContext {
  readonly request?: unknown;
  readonly response?: unknown;
}

/** What the protocol layer knows about one request, shared by the calls it makes. */
export interface RequestScope {
  readonly serverContext: ServerContext;
  readonly era: ProtocolEra;
  readonly transport: TransportContext;
  /** Reads the caller's scopes from the request (the `callerScopes` option). */
  readonly readScopes: (request: unknown) => readonly string[];
  /** What the client declared in `initialize` (2025-era connections). */
  readonly legacyClientCapabilities: () => ClientCapabilities | undefined;
  /** Signs request state for the next round of an input-required flow. */
  readonly mintRequestState: (state: unknown, serverContext: ServerContext) => Promise<string>;
}

/**
 * The state of one call (or one listing check) of a tool, prompt or resource as it
 * travels through the Nest pipeline. It is the third handler argument, so
 * `ExecutionContext#getArgs()` is `[request, response, call]` and guards written for HTTP
 * find the request where `switchToHttp()` looks for it.
 */
export class McpCall implements McpCallContext {
  /**
   * Whether the call got past guards and interceptors to the method's parameters: refused
   * calls and cache hits stay `false`, and publish no event.
   */
  executed = false;
  /** Set by the invoker before the pipeline runs; read where pipes run. */
  validation: ArgumentsValidation<object | undefined> = { ok: true, value: undefined };
  /** Set by the protocol layer when telemetry times the phases of this call. */
  phases?: CallPhases;
  readonly arguments: Readonly<Record<string, unknown>>;
  private callerScopes?: readonly string[];
  private response?: DetachedResponse;
  private lastProgress = -Infinity;

  constructor(
    readonly kind: McpPrimitiveKind,
    readonly name: string,
    args: Readonly<Record<string, unknown>>,
    private readonly scope: RequestScope,
    readonly phase: McpPhase = 'call',
  ) {
    this.arguments = args;
  }

  get toolName(): string {
    return this.name;
  }

  get era(): ProtocolEra {
    return this.scope.era;
  }

  get serverContext(): ServerContext {
    return this.scope.serverContext;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    const envelope = this.serverContext.mcpReq.envelope as
      Record<string, ClientCapabilities | undefined> | undefined;
    return this.era === 'modern'
      ? envelope?.[CLIENT_CAPABILITIES_META_KEY]
      : this.scope.legacyClientCapabilities();
  }

  get requestId() {
    return this.scope.serverContext.mcpReq.id;
  }

  get signal() {
    return this.scope.serverContext.mcpReq.signal;
  }

  get httpRequest() {
    return this.scope.transport.request;
  }

  get httpResponse() {
    return this.scope.transport.response;
  }

  get scopes(): readonly string[] {
    return (this.callerScopes ??= this.scope.readScopes(this.scope.transport.request));
  }

  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.serverContext.mcpReq._meta?.progressToken as
      ProgressToken | undefined;
    // The protocol wants rising values, and nothing once the call has ended.
    if (progressToken === undefined || !(progress > this.lastProgress) || this.signal.aborted) {
      return;
    }
    this.lastProgress = progress;
    await this.serverContext.mcpReq.notify({
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      },
    });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    // The SDK applies the level the client asked for (per session or per request).
    return this.serverContext.mcpReq.log(level, data, logger);
  }

  input(key: string): InputResponseView {
    return inputResponse(this.serverContext.mcpReq.inputResponses, key);
  }

  acceptedInput<T extends Record<string, unknown> = Record<string, unknown>>(
    key: string,
  ): T | undefined {
    return acceptedContent<T>(this.serverContext.mcpReq.inputResponses, key);
  }

  requestState<T = unknown>(): T | undefined {
    return this.serverContext.mcpReq.requestState<T>();
  }

  mintRequestState<T>(state: T): Promise<string> {
    return this.scope.mintRequestState(state, this.serverContext);
  }

  /** The validated DTO instance, or the validation failure raised as an error. */
  validatedArguments(): object | undefined {
    if (!this.validation.ok) {
      throw new InvalidArgumentsError(this.name, this.validation.issues, this.kind);
    }
    this.executed = true;
    return this.validation.value;
  }

  /**
   * The handler arguments `ExternalContextCreator` passes to guards, interceptors and
   * params: the real request, a {@link DetachedResponse} (the real one belongs to the SDK),
   * and this call.
   */
  handlerArgs(): [unknown, DetachedResponse, McpCall] {
    return [this.scope.transport.request, this.detachedResponse, this];
  }

  /** What guards, interceptors and filters wrote to the response of this call. */
  get detachedResponse(): DetachedResponse {
    return (this.response ??= new DetachedResponse());
  }
}
