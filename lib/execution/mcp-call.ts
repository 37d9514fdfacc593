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
  McpTaskContext,
} from '../interfaces/mcp-call-context.interface.js';
import type { LocalizedTexts } from '../i18n/localized-texts.js';
import type { CallPhases } from './call-phases.js';
import { DetachedResponse } from './detached-response.js';
import type { ArgumentsValidation } from '../validation/dto-arguments.validator.js';

/** What a transport knows about the caller: the platform request and response, if any. */
export interface TransportContext {
  readonly request?: unknown;
  readonly response?: unknown;
  /** The locale the transport settled on (HTTP: negotiated once per request; stdio, CLI). */
  readonly locale?: string;
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
  /** Verifies a state minted for this request and returns what was minted. */
  readonly verifyRequestState: (state: string, serverContext: ServerContext) => Promise<unknown>;
  /** The language negotiated for this request (docs/i18n.md). */
  readonly locale?: string;
  /** The library's words to the model in that language; absent without `i18n`. */
  readonly texts?: LocalizedTexts;
}

/** The language of calls when the server has no `i18n` option. */
export const DEFAULT_LOCALE = 'en';

/**
 * What running as a task changes in a call (set by the task runner): the signal aborts on
 * cancel or TTL expiry, progress becomes status messages, and the answers of a round of
 * questions asked inside the task come from the task, not from the request.
 */
export interface TaskBinding extends McpTaskContext {
  readonly signal: AbortSignal;
  /** The answers of the task's current round; `undefined` before its first question. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** What the method minted with its questions inside the task (verified). */
  readonly requestState?: unknown;
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
  /** Set by the task runner when the call runs as a task. */
  taskBinding?: TaskBinding;
  /** Told when guards and interceptors let the call reach the method (the task runner). */
  onMethodReached?: () => void;
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

  get signal(): AbortSignal {
    return this.taskBinding?.signal ?? this.scope.serverContext.mcpReq.signal;
  }

  get locale(): string {
    return this.scope.locale ?? DEFAULT_LOCALE;
  }

  /** @internal The library's words to the model in this call's locale, with `i18n`. */
  get texts(): LocalizedTexts | undefined {
    return this.scope.texts;
  }

  get task(): McpTaskContext | undefined {
    return this.taskBinding;
  }

  /** The request scope, for the task runner to make the calls of later rounds. */
  get requestScope(): RequestScope {
    return this.scope;
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
    if (this.taskBinding) {
      // A task has no open request to notify: its progress is its status message.
      if (!(progress > this.lastProgress) || this.signal.aborted) return;
      this.lastProgress = progress;
      const of = total === undefined ? `${progress}` : `${progress}/${total}`;
      return this.taskBinding.setStatus(message === undefined ? of : `${message} (${of})`);
    }
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
    // A task outlives its request: there is no stream left to log to (the extension
    // defines no log notifications for tasks).
    if (this.taskBinding) return Promise.resolve();
    // The SDK applies the level the client asked for (per session or per request).
    return this.serverContext.mcpReq.log(level, data, logger);
  }

  input(key: string): InputResponseView {
    return inputResponse(this.inputResponses, key);
  }

  acceptedInput<T extends Record<string, unknown> = Record<string, unknown>>(
    key: string,
  ): T | undefined {
    return acceptedContent<T>(this.inputResponses, key);
  }

  requestState<T = unknown>(): T | undefined {
    const binding = this.taskBinding;
    if (binding?.inputResponses !== undefined) return binding.requestState as T | undefined;
    return this.serverContext.mcpReq.requestState<T>();
  }

  mintRequestState<T>(state: T): Promise<string> {
    return this.scope.mintRequestState(state, this.serverContext);
  }

  /** The answers of this round: the task's once it asked inside the task, else the request's. */
  private get inputResponses() {
    return (this.taskBinding?.inputResponses ??
      this.serverContext.mcpReq.inputResponses) as typeof this.serverContext.mcpReq.inputResponses;
  }

  /**
   * Guards and interceptors let the call through: its parameters are being resolved (once
   * per parameter; what listens must not mind being told twice).
   */
  methodReached(): void {
    // Invalid arguments are refused where they are resolved: the method is not reached.
    if (!this.validation.ok) return;
    this.phases?.methodReached();
    this.onMethodReached?.();
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
