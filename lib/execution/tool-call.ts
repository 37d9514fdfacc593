import type { ProtocolEra, ServerContext } from '@modelcontextprotocol/server';
import { InvalidToolArgumentsError } from '../errors/invalid-tool-arguments.error.js';
import type { McpCallContext } from '../interfaces/mcp-call-context.interface.js';
import type { ArgumentsValidation } from './dto-arguments.validator.js';

/** What a transport knows about the caller: the platform request and response, if any. */
export interface TransportContext {
  readonly request?: unknown;
  readonly response?: unknown;
}

/**
 * The state of one tool call as it travels through the Nest pipeline. It is the third
 * handler argument, so `ExecutionContext#getArgs()` is `[request, response, call]` and
 * guards written for HTTP find the request where `switchToHttp()` looks for it.
 */
export class ToolCall implements McpCallContext {
  /** Set by the invoker before the pipeline runs; read where pipes run. */
  validation: ArgumentsValidation<object | undefined> = { ok: true, value: undefined };

  readonly arguments: Readonly<Record<string, unknown>>;

  constructor(
    readonly toolName: string,
    args: Readonly<Record<string, unknown>>,
    readonly serverContext: ServerContext,
    readonly era: ProtocolEra,
    private readonly transport: TransportContext,
  ) {
    this.arguments = args;
  }

  get requestId() {
    return this.serverContext.mcpReq.id;
  }

  get signal() {
    return this.serverContext.mcpReq.signal;
  }

  get httpRequest() {
    return this.transport.request;
  }

  get httpResponse() {
    return this.transport.response;
  }

  /** The validated DTO instance, or the validation failure raised as an error. */
  validatedArguments(): object | undefined {
    if (!this.validation.ok)
      throw new InvalidToolArgumentsError(this.toolName, this.validation.issues);
    return this.validation.value;
  }

  /** The handler arguments `ExternalContextCreator` passes to guards, interceptors and params. */
  handlerArgs(): [unknown, unknown, ToolCall] {
    return [this.transport.request, this.transport.response, this];
  }
}
