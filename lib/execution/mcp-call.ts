import type { ProtocolEra, ServerContext } from '@modelcontextprotocol/server';
import { InvalidToolArgumentsError } from '../errors/invalid-tool-arguments.error.js';
import type { McpCallContext, McpPhase } from '../interfaces/mcp-call-context.interface.js';
import { DetachedResponse } from './detached-response.js';
import type { ArgumentsValidation } from './dto-arguments.validator.js';

/** What a transport knows about the caller: the platform request and response, if any. */
export interface TransportContext {
  readonly request?: unknown;
  readonly response?: unknown;
}

/** What the protocol layer knows about one request, shared by the tool calls it makes. */
export interface RequestScope {
  readonly serverContext: ServerContext;
  readonly era: ProtocolEra;
  readonly transport: TransportContext;
  /** Reads the caller's scopes from the request (the `callerScopes` option). */
  readonly readScopes: (request: unknown) => readonly string[];
}

/**
 * The state of one tool call (or one listing check) as it travels through the Nest
 * pipeline. It is the third handler argument, so `ExecutionContext#getArgs()` is
 * `[request, response, call]` and guards written for HTTP find the request where
 * `switchToHttp()` looks for it.
 */
export class ToolCall implements McpCallContext {
  /**
   * Whether the call got past guards and interceptors to the method's parameters: refused
   * calls and cache hits stay `false`, and publish no event.
   */
  executed = false;
  /** Set by the invoker before the pipeline runs; read where pipes run. */
  validation: ArgumentsValidation<object | undefined> = { ok: true, value: undefined };
  readonly arguments: Readonly<Record<string, unknown>>;
  private callerScopes?: readonly string[];
  private response?: DetachedResponse;

  constructor(
    readonly toolName: string,
    args: Readonly<Record<string, unknown>>,
    private readonly scope: RequestScope,
    readonly phase: McpPhase = 'call',
  ) {
    this.arguments = args;
  }

  get era(): ProtocolEra {
    return this.scope.era;
  }

  get serverContext(): ServerContext {
    return this.scope.serverContext;
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

  /** The validated DTO instance, or the validation failure raised as an error. */
  validatedArguments(): object | undefined {
    if (!this.validation.ok) {
      throw new InvalidToolArgumentsError(this.toolName, this.validation.issues);
    }
    this.executed = true;
    return this.validation.value;
  }

  /**
   * The handler arguments `ExternalContextCreator` passes to guards, interceptors and
   * params: the real request, a {@link DetachedResponse} (the real one belongs to the SDK),
   * and this call.
   */
  handlerArgs(): [unknown, DetachedResponse, ToolCall] {
    return [this.scope.transport.request, this.detachedResponse, this];
  }

  /** What guards, interceptors and filters wrote to the response of this call. */
  get detachedResponse(): DetachedResponse {
    return (this.response ??= new DetachedResponse());
  }
}
