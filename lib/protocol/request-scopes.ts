import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type ProtocolEra,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { randomBytes } from 'node:crypto';
import { callerIdentityReader } from '../authorization/caller-identity.js';
import { defaultCallerScopes, toScopeList } from '../authorization/caller-scopes.js';
import type { MintedState, RequestScope, TransportCaller } from '../execution/mcp-call.js';
import type { McpLocalization } from '../localization/mcp-localization.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpTaskJob } from '../interfaces/mcp-scale-out.interface.js';
import { taskJobRequest, taskJobServerContext } from '../tasks/task-job.js';
import { editionOf, localeScope } from './localized-serving.js';

/**
 * The error of a request state this server did not mint for this request: the SDK's own
 * refusal (`requestState.verify` rejecting), which says nothing of why, so that a caller
 * learns nothing of a state that is not its own (2026-07-28, basic/patterns/mrtr).
 */
export const invalidRequestState = () =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
    reason: 'invalid_request_state',
  });

/**
 * Refuses a request whose verified state was minted for another entry (a tool's state sent
 * to another tool, by the same caller).
 */
export function assertStateOf(serverContext: ServerContext, entry: string): void {
  const minted = serverContext.mcpReq.requestState<MintedState | undefined>();
  if (minted === undefined) return;
  if (typeof minted !== 'object' || minted === null || minted.entry !== entry) {
    throw invalidRequestState();
  }
}

/**
 * What the calls of one MCP server need of their request, made the same way for a request
 * served and for a queued task's job: the caller's identity and scopes, the request-state
 * codec, the locale and its texts. One per server, made at bootstrap.
 */
export class RequestScopes {
  private readonly readScopes: RequestScope['readScopes'];
  /** Who the caller of a request is: the `identity` option, else the default. */
  readonly identityOf: (request: unknown) => string;
  private readonly codec: RequestStateCodec<MintedState>;
  /** The caller each context is minted or verified for (the codec binds what it reads). */
  private readonly callers = new WeakMap<ServerContext, string>();

  constructor(
    options: McpModuleOptions,
    private readonly localization?: McpLocalization,
  ) {
    const reader = options.callerScopes ?? defaultCallerScopes;
    this.readScopes = (request) => toScopeList(reader(request));
    this.identityOf = callerIdentityReader(options.identity);
    this.codec = createRequestStateCodec<MintedState>({
      // One random key per process unless the app shares one across its instances.
      key: options.requestState?.secret ?? randomBytes(32),
      ...(options.requestState?.ttlSeconds && { ttlSeconds: options.requestState.ttlSeconds }),
      // A state minted for one method, or for one caller, cannot be replayed on another (the
      // codec keeps only an HMAC of this value, never the identity).
      bind: (ctx) => `${ctx.mcpReq.method}\0${this.callers.get(ctx) ?? ''}`,
    });
  }

  /** The scope of a request served over a transport. */
  of(
    serverContext: ServerContext,
    era: ProtocolEra,
    transport: TransportCaller,
    legacyClientCapabilities: RequestScope['legacyClientCapabilities'],
  ): RequestScope {
    const { localization } = this;
    const identity = transport.identity ?? this.identityOf(transport.request);
    return {
      serverContext,
      era,
      transport,
      identity,
      readScopes: this.readScopes,
      mintRequestState: (state, ctx, entry) => this.mint(state, ctx, identity, entry),
      verifyRequestState: (state, ctx) => this.verify(state, ctx, identity),
      legacyClientCapabilities,
      ...(localization && localeScope(editionOf(localization, transport))),
    };
  }

  /** The scope of a queued task's call, on the worker that took it (`tasks.queue`). */
  ofJob(job: McpTaskJob, signal: AbortSignal): RequestScope {
    const transport: TransportCaller = {
      request: taskJobRequest(job),
      ...(job.locale !== undefined && { locale: job.locale }),
      ...(job.caller.identity !== undefined && { identity: job.caller.identity }),
    };
    return this.of(taskJobServerContext(job, signal), job.era, transport, () =>
      job.era === 'legacy' ? job.clientCapabilities : undefined,
    );
  }

  /**
   * Verifies a state echoed by `identity`'s request, as the SDK's `requestState.verify`
   * hook: what it resolves is what `ctx.mcpReq.requestState()` gives the handler.
   */
  verify(state: string, ctx: ServerContext, identity: string): Promise<MintedState> {
    this.callers.set(ctx, identity);
    return this.codec.verify(state, ctx);
  }

  private mint(
    state: unknown,
    ctx: ServerContext,
    identity: string,
    entry: string,
  ): Promise<string> {
    this.callers.set(ctx, identity);
    return this.codec.mint({ entry, state }, ctx);
  }
}
