import type { ProtocolEra, ServerContext } from '@modelcontextprotocol/server';
import { vi } from 'vitest';
import {
  McpCall,
  type MintedState,
  type RequestScope,
  type TaskBinding,
} from '../../lib/execution/mcp-call.js';

/** What one fake request carries, as the SDK would hand it to a handler. */
export interface FakeRequest {
  readonly id?: string | number;
  readonly method?: string;
  readonly progressToken?: string | number;
  /** The 2026-07-28 `_meta` envelope (client capabilities by `CLIENT_CAPABILITIES_META_KEY`). */
  readonly envelope?: Record<string, unknown>;
  readonly requestState?: unknown;
  readonly inputResponses?: Record<string, unknown>;
  readonly signal?: AbortSignal;
}

/**
 * A `ServerContext` of the SDK with only what calls read: no server behind it, so unit
 * tests see what a call would send (`notify`, `log` are spies).
 */
export function fakeServerContext(request: FakeRequest = {}) {
  const notify = vi.fn(async (_notification: unknown) => undefined);
  const log = vi.fn(async (_level: string, _data: unknown, _logger?: string) => undefined);
  const ctx = {
    mcpReq: {
      id: request.id ?? 1,
      method: request.method ?? 'tools/call',
      signal: request.signal ?? new AbortController().signal,
      _meta: request.progressToken === undefined ? {} : { progressToken: request.progressToken },
      ...(request.envelope && { envelope: request.envelope }),
      requestState: () => request.requestState,
      inputResponses: request.inputResponses,
      notify,
      log,
    },
  } as unknown as ServerContext;
  return { ctx, notify, log };
}

/** A request scope around a fake context; state is "minted" as JSON, so tests can read it. */
export function fakeScope(
  serverContext: ServerContext = fakeServerContext().ctx,
  overrides: Partial<RequestScope> = {},
): RequestScope {
  return {
    serverContext,
    era: 'legacy' as ProtocolEra,
    transport: {},
    identity: 'anonymous',
    readScopes: () => [],
    legacyClientCapabilities: () => undefined,
    mintRequestState: async (state, _ctx, entry) => JSON.stringify({ entry, state }),
    verifyRequestState: async (state) => JSON.parse(state) as MintedState,
    ...overrides,
  };
}

/** A `tools/call` of `name`, as the protocol layer makes it. */
export const toolCall = (
  name: string,
  args: Record<string, unknown> = {},
  scope: RequestScope = fakeScope(),
  task?: TaskBinding,
) => new McpCall({ kind: 'tool', name, arguments: args, scope, ...(task && { task }) });
