import { expect } from 'vitest';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputRequest,
  type ResolvedInputExchangeContext,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  checkLegacy,
  checkModern,
  exchangeOf,
  LEGACY_VERSION,
  messagesOf,
  MODERN_VERSION,
  TASKS_EXTENSION,
  WireLog,
} from './task-wire.js';

const CLIENT_INFO = { name: 'e2e-tasks', version: '1.0.0' };
/** The client answers elicitations (the tasks extension is added per request). */
const CLIENT_CAPABILITIES = { elicitation: {} };

/** A JSON-RPC answer: the HTTP status and the response message. */
export interface RawAnswer {
  status: number;
  message: Record<string, any>;
}

const authorization = (token?: string): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {};

let nextId = 1;

/** Posts one JSON-RPC request and records the exchange in `wire`. */
async function post(
  url: URL,
  request: { method: string; params?: Record<string, any> },
  headers: Record<string, string>,
  wire: WireLog,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...request }),
    signal,
  });
  const exchange = exchangeOf(request, res.status, await messagesOf(res));
  wire.record(exchange);
  return { status: exchange.status, message: exchange.message };
}

/** The `_meta` of a 2026-07-28 request, declaring the tasks extension or not. */
export function modernEnvelope(extension: boolean): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': extension
      ? { ...CLIENT_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } }
      : CLIENT_CAPABILITIES,
  };
}

/** The standard headers of a 2026-07-28 request (`Mcp-Name`: the tool or the task). */
function modernHeaders(method: string, params: Record<string, any> = {}) {
  const name = method === 'tools/call' ? params.name : params.taskId;
  return {
    'MCP-Protocol-Version': MODERN_VERSION,
    'Mcp-Method': method,
    ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
  };
}

/** One input request the client was asked, with where it came from. */
export interface AskedInput {
  request: ApplicationInputRequest;
  context: ResolvedInputExchangeContext;
}

export interface ModernTaskClient {
  /** The v2 SDK client, pinned to 2026-07-28 (server/discover, plain calls). */
  readonly client: ModernClient;
  /** The ext-tasks session over that client. */
  readonly session: TaskEnabledSession;
  readonly wire: WireLog;
  /** The input requests the session answered. */
  readonly asked: AskedInput[];
  /**
   * One raw request as this caller; `extension: false` leaves out the tasks extension.
   * @default extension: true
   */
  request(
    method: string,
    params?: Record<string, any>,
    options?: { extension?: boolean },
  ): Promise<RawAnswer>;
  close(): Promise<void>;
}

/**
 * A 2026-07-28 task client: the ext-tasks session over the v2 SDK client, its task
 * traffic sent by a raw dispatcher (what ext-tasks needs for V2 task wire shapes) that
 * checks every answer against the ext-tasks V2 schemas. `answer` replies to the input
 * requests of calls and tasks.
 */
export async function connectModernTaskClient(
  url: URL,
  options: {
    token?: string;
    /** More headers on every request (a tenant header, say). */
    headers?: Record<string, string>;
    answer?: (request: ApplicationInputRequest) => Record<string, any>;
  } = {},
): Promise<ModernTaskClient> {
  const headers = { ...authorization(options.token), ...options.headers };
  const wire = new WireLog(checkModern);
  const asked: AskedInput[] = [];
  const client = new ModernClient(CLIENT_INFO, {
    versionNegotiation: { mode: { pin: MODERN_VERSION } },
  });
  await client.connect(new ModernTransport(url, { requestInit: { headers } }));
  if (client.getProtocolEra() !== 'modern') throw new Error('expected the modern era');
  const session = createTaskSessionFromClient(client, {
    endpointId: `e2e-${url.port}-${options.token ?? 'anonymous'}-${JSON.stringify(options.headers ?? {})}`,
    v2RequestFraming: {
      protocolVersion: MODERN_VERSION,
      clientInfo: CLIENT_INFO,
      clientCapabilities: CLIENT_CAPABILITIES,
    },
    rawDispatch: async (request, dispatch) => {
      const message = request as { method: string; params?: Record<string, any> };
      const answer = await post(
        url,
        message,
        {
          ...headers,
          ...modernHeaders(message.method, message.params),
          ...dispatch?.context?.headers,
        },
        wire,
        dispatch?.signal,
      );
      return answer.message.error
        ? { kind: 'error', error: answer.message.error }
        : { kind: 'result', result: answer.message.result };
    },
    onInputRequest: async (request, context) => {
      asked.push({ request, context: context as ResolvedInputExchangeContext });
      if (!options.answer) throw new Error(`unexpected input request ${JSON.stringify(request)}`);
      return options.answer(request) as never;
    },
  });
  return {
    client,
    session,
    wire,
    asked,
    request: (method, params = {}, { extension = true } = {}) =>
      post(
        url,
        { method, params: { ...params, _meta: modernEnvelope(extension) } },
        { ...headers, ...modernHeaders(method, params) },
        wire,
      ),
    async close() {
      await session.close();
      await client.close();
    },
  };
}

/** A `fetch` that records every POSTed request and its answer in `wire`. */
function recordingFetch(wire: WireLog): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const method = init?.method ?? 'GET';
    if (method === 'POST' && typeof init?.body === 'string') {
      const request = JSON.parse(init.body);
      // Notifications and responses to the server have no answer to check.
      if (request.method && request.id !== undefined) {
        const copy = res.clone();
        wire.track(messagesOf(copy).then((messages) => exchangeOf(request, copy.status, messages)));
      }
    }
    return res;
  };
}

export interface LegacyTaskClient {
  /** The v1 SDK client (2025-11-25) with its experimental tasks API. */
  readonly client: LegacyClient;
  readonly wire: WireLog;
  /** One raw 2025-11-25 request as this caller, without a session. */
  request(method: string, params?: Record<string, any>): Promise<RawAnswer>;
  close(): Promise<void>;
}

/** A 2025-11-25 task client: the v1 SDK client, its traffic checked against the V1 schemas. */
export async function connectLegacyTaskClient(
  url: URL,
  token?: string,
  options: { elicitation?: (params: Record<string, any>) => Record<string, any> } = {},
): Promise<LegacyTaskClient> {
  const headers = authorization(token);
  const wire = new WireLog(checkLegacy);
  const { elicitation } = options;
  const client = new LegacyClient(CLIENT_INFO, {
    capabilities: elicitation ? { elicitation: {} } : {},
  });
  if (elicitation) {
    client.setRequestHandler(
      ElicitRequestSchema,
      (request) => elicitation(request.params) as never,
    );
  }
  await client.connect(
    new LegacyTransport(url, { requestInit: { headers }, fetch: recordingFetch(wire) }),
  );
  // Fills the client's cache of task tools (`execution.taskSupport`), page by page.
  let cursor: string | undefined;
  do {
    cursor = (await client.listTools(cursor ? { cursor } : undefined)).nextCursor;
  } while (cursor);
  return {
    client,
    wire,
    request: (method, params = {}) =>
      post(url, { method, params }, { ...headers, 'MCP-Protocol-Version': LEGACY_VERSION }, wire),
    close: () => client.close(),
  };
}

/** Calls `name` with `params.task` and reads the stream to its `taskCreated` (checked). */
export async function startLegacyTask(caller: LegacyTaskClient, name: string) {
  const stream = caller.client.experimental.tasks.callToolStream(
    { name, arguments: {} },
    undefined,
    { task: {} },
  );
  const first = await stream.next();
  expect(first.value).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
  const { taskId } = (first.value as { task: { taskId: string } }).task;
  return { stream, taskId };
}

/** Every answer these clients got had the shape its revision's ext-tasks schemas give. */
export async function expectWellFormedWires(
  clients: Iterable<{ readonly wire: WireLog } | undefined>,
): Promise<void> {
  for (const client of clients) {
    if (!client) continue;
    await client.wire.settled();
    expect(client.wire.violations.splice(0)).toEqual([]);
  }
}
