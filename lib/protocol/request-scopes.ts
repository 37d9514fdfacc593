import {
  createRequestStateCodec,
  type ProtocolEra,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { randomBytes } from 'node:crypto';
import { defaultCallerScopes, toScopeList } from '../authorization/caller-scopes.js';
import type { RequestScope, TransportCaller } from '../execution/mcp-call.js';
import type { McpLocalization } from '../localization/mcp-localization.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpTaskJob } from '../interfaces/mcp-scale-out.interface.js';
import { taskJobRequest, taskJobServerContext } from '../tasks/task-job.js';
import { editionOf, localeScope } from './localized-serving.js';

/**
 * What the calls of one MCP server need of their request, made the same way for a request
 * served and for a queued task's job: the caller's scopes, the request-state codec, the
 * locale and its texts. One per server, made at bootstrap.
 */
export class RequestScopes {
  private readonly readScopes: RequestScope['readScopes'];
  private readonly codec: RequestStateCodec;
  private readonly mintRequestState: RequestScope['mintRequestState'];
  /** Verifies a request state this server minted (the SDK's servers verify with it too). */
  readonly verifyRequestState: RequestScope['verifyRequestState'];

  constructor(
    options: McpModuleOptions,
    private readonly localization?: McpLocalization,
  ) {
    const reader = options.callerScopes ?? defaultCallerScopes;
    this.readScopes = (request) => toScopeList(reader(request));
    this.codec = createRequestStateCodec({
      // One random key per process unless the app shares one across its instances.
      key: options.requestState?.secret ?? randomBytes(32),
      ...(options.requestState?.ttlSeconds && { ttlSeconds: options.requestState.ttlSeconds }),
      // A state minted for one method, or for one caller's credentials, cannot be replayed
      // on another (the codec keeps only an HMAC of this value, never the credentials).
      bind: (ctx) =>
        `${ctx.mcpReq.method}\0${ctx.http?.req?.headers.get('authorization') ?? ''}\0${ctx.http?.authInfo?.clientId ?? ''}`,
    });
    this.mintRequestState = (state, ctx) => this.codec.mint(state, ctx);
    this.verifyRequestState = (state, ctx) => this.codec.verify(state, ctx);
  }

  /** The scope of a request served over a transport. */
  of(
    serverContext: ServerContext,
    era: ProtocolEra,
    transport: TransportCaller,
    legacyClientCapabilities: RequestScope['legacyClientCapabilities'],
  ): RequestScope {
    const { localization } = this;
    return {
      serverContext,
      era,
      transport,
      readScopes: this.readScopes,
      mintRequestState: this.mintRequestState,
      verifyRequestState: this.verifyRequestState,
      legacyClientCapabilities,
      ...(localization && localeScope(editionOf(localization, transport))),
    };
  }

  /** The scope of a queued task's call, on the worker that took it (`tasks.queue`). */
  ofJob(job: McpTaskJob, signal: AbortSignal): RequestScope {
    const transport: TransportCaller = {
      request: taskJobRequest(job),
      ...(job.locale !== undefined && { locale: job.locale }),
    };
    return this.of(taskJobServerContext(job, signal), job.era, transport, () =>
      job.era === 'legacy' ? job.clientCapabilities : undefined,
    );
  }
}
