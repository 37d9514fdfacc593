import {
  acceptedContent,
  type ClientCapabilities,
  inputResponse,
  type InputResponseView,
  type LoggingLevel,
  type ProgressToken,
  type ProtocolEra,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type {
  McpCallContext,
  McpPhase,
  McpPrimitiveKind,
  McpTaskContext,
} from '../interfaces/mcp-call-context.interface.js';
import type { LocalizedTexts } from '../localization/localized-texts.js';
import type { CallPhases } from './call-phases.js';
import { clientCapabilitiesOf, declaredExtensions } from '../context/client-capabilities.js';
import { DetachedResponse } from '../context/detached-response.js';

/** What a transport knows about the caller: the platform request and response, if any. */
export interface TransportCaller {
  readonly request?: unknown;
  readonly response?: unknown;
  /** The locale the transport settled on (HTTP: negotiated once per request; stdio, CLI). */
  readonly locale?: string;
  /**
   * Who the caller is (the `identity` option), when the transport resolved it already;
   * otherwise it is resolved from `request` where the request's scope is made.
   */
  readonly identity?: string;
}

/** What request state holds: the entry it was minted for, and the method's own state. */
export interface MintedState {
  /** The name of the tool or prompt, or the URI of the resource, that minted it. */
  readonly entry: string;
  readonly state: unknown;
}

/** What the protocol layer knows about one request, shared by the calls it makes. */
export interface RequestScope {
  readonly serverContext: ServerContext;
  readonly era: ProtocolEra;
  readonly transport: TransportCaller;
  /** Who the caller is: what sessions, request state and tasks are bound to. */
  readonly identity: string;
  /** Reads the caller's scopes from the request (the `callerScopes` option). */
  readonly readScopes: (request: unknown) => readonly string[];
  /** What the client declared in `initialize` (2025-era connections). */
  readonly legacyClientCapabilities: () => ClientCapabilities | undefined;
  /**
   * Signs request state for the next round of an input-required flow, bound to the method,
   * the caller (`identity`) and the entry (a tool's state is refused by another tool).
   */
  readonly mintRequestState: (
    state: unknown,
    serverContext: ServerContext,
    entry: string,
  ) => Promise<string>;
  /** Verifies a state minted for this caller and method; what was minted, with its entry. */
  readonly verifyRequestState: (
    state: string,
    serverContext: ServerContext,
  ) => Promise<MintedState>;
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

/** What a call is made of: all of it known before the call runs, none of it changed after. */
export interface McpCallInit {
  readonly kind: McpPrimitiveKind;
  /** The listed name of the tool or prompt (never an alias), or the URI of the resource. */
  readonly name: string;
  /** The arguments as the client sent them. */
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly scope: RequestScope;
  /** @default 'call' */
  readonly phase?: McpPhase;
  /** The timing of the call's phases, when telemetry records them. */
  readonly phases?: CallPhases;
  /** What running as a task changes; made by the task runner for each round of a task. */
  readonly task?: TaskBinding;
  /**
   * The signal the method sees when the call has a deadline (`timeoutMs`): it aborts with
   * the request's (or the task's) and when the time runs out. Absent otherwise, so that a
   * call without limits makes no signal of its own.
   */
  readonly signal?: AbortSignal;
}

/**
 * One call (or one listing check) of a tool, prompt or resource, as the protocol layer
 * made it from the request: immutable. A stage that adds to it makes a new one (the task
 * runner a round of a task with {@link McpCall.asTask}, the invoker the call with checked
 * arguments, `McpInvocation`), so no stage writes what another owns. It is the third
 * handler argument, so `ExecutionContext#getArgs()` is `[request, response, call]` and
 * guards written for HTTP find the request where `switchToHttp()` looks for it.
 */
export class McpCall implements McpCallContext {
  readonly kind: McpPrimitiveKind;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly phase: McpPhase;
  /** The timing of the call's phases, when telemetry records them. */
  readonly phases?: CallPhases;
  /** What running as a task changes in this call; `undefined` outside a task. */
  readonly taskBinding?: TaskBinding;
  private readonly scope: RequestScope;
  // What the call itself accumulates while it runs: read once, or written by its own methods.
  private callerScopes?: readonly string[];
  private response?: DetachedResponse;
  private lastProgress = -Infinity;

  constructor(private readonly init: McpCallInit) {
    this.kind = init.kind;
    this.name = init.name;
    this.arguments = init.arguments;
    this.scope = init.scope;
    this.phase = init.phase ?? 'call';
    this.phases = init.phases;
    this.taskBinding = init.task;
  }

  /** The same call as a round of a task (its signal, status and answers are the task's). */
  asTask(task: TaskBinding): McpCall {
    // The task's signal replaces the request's, and any deadline made from it.
    return new McpCall({ ...this.init, task, signal: undefined });
  }

  /** The same call seen through `signal` (one that also aborts on its deadline). */
  withSignal(signal: AbortSignal): McpCall {
    return new McpCall({ ...this.init, signal });
  }

  /** What this call was made of, for a stage that makes the next form of it. */
  get parts(): McpCallInit {
    return this.init;
  }

  get era(): ProtocolEra {
    return this.scope.era;
  }

  get serverContext(): ServerContext {
    return this.scope.serverContext;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return clientCapabilitiesOf(this.serverContext, this.era, this.scope.legacyClientCapabilities);
  }

  get extensions(): Readonly<Record<string, object>> {
    return declaredExtensions(this.clientCapabilities);
  }

  get requestId() {
    return this.scope.serverContext.mcpReq.id;
  }

  get signal(): AbortSignal {
    return this.init.signal ?? this.taskBinding?.signal ?? this.scope.serverContext.mcpReq.signal;
  }

  get locale(): string {
    return this.scope.locale ?? DEFAULT_LOCALE;
  }

  /** The library's words to the model in this call's locale, with `i18n`. */
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
    // Verified by the SDK (`requestState.verify`), and checked to be this entry's by the
    // handler that made this call.
    return this.serverContext.mcpReq.requestState<MintedState>()?.state as T | undefined;
  }

  mintRequestState<T>(state: T): Promise<string> {
    return this.scope.mintRequestState(state, this.serverContext, this.name);
  }

  /** Who the caller is (the `identity` option): what tasks and state are bound to. */
  get identity(): string {
    return this.scope.identity;
  }

  /** The answers of this round: the task's once it asked inside the task, else the request's. */
  private get inputResponses() {
    return (this.taskBinding?.inputResponses ??
      this.serverContext.mcpReq.inputResponses) as typeof this.serverContext.mcpReq.inputResponses;
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
