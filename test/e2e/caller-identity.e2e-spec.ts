import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpServerHost } from 'nestjs-mcp';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyAppModule, MethodRuns } from '../fixtures/caller-identity.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { messagesOf } from '../support/task-wire.js';

// Issue 31: every piece of state of a 2025 session is bound to the caller that made it (its
// identity, here the app's own `req.user.id` from an API key, with no `Authorization` at
// all); another caller naming it gets the answer of an id that does not exist.

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

const LEGACY_VERSION = '2025-11-25';
const WAIT = { timeout: 10_000, interval: 50 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer as the wire carried it: the HTTP status and the last JSON-RPC message. */
interface WireAnswer {
  status: number;
  message: Record<string, any> | undefined;
}

let nextId = 1;
const toolsCall = (name: string) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const toolsList = () => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/list' });
const initialize = () => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'initialize',
  params: {
    protocolVersion: LEGACY_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

/** One raw request of the caller holding `key`, naming `sessionId` (if any). */
async function send(
  url: URL,
  key: string,
  init: { method?: string; sessionId?: string; body?: object; headers?: Record<string, string> },
): Promise<Response> {
  const { method = 'POST', sessionId, body, headers = {} } = init;
  return fetch(url, {
    method,
    headers: {
      Accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      ...(body && { 'Content-Type': 'application/json' }),
      'MCP-Protocol-Version': LEGACY_VERSION,
      'X-Api-Key': key,
      ...(sessionId && { 'Mcp-Session-Id': sessionId }),
      ...headers,
    },
    ...(body && { body: JSON.stringify(body) }),
    // A stream handed out by mistake must not hang the test.
    signal: AbortSignal.timeout(5_000),
  });
}

/** {@link send}, read: a stream that stays open is read only as far as its status. */
async function answer(url: URL, key: string, init: Parameters<typeof send>[2]) {
  const res = await send(url, key, init);
  if (init.method === 'GET' && res.ok) {
    await res.body?.cancel();
    return { status: res.status, message: undefined };
  }
  return { status: res.status, message: (await messagesOf(res)).at(-1) } satisfies WireAnswer;
}

/** Opens a 2025 session as the caller holding `key`; its id. */
async function openSession(url: URL, key: string): Promise<string> {
  const res = await send(url, key, { body: initialize() });
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

/** A v1 SDK client (2025-11-25, a session) authenticated by an API key. */
async function connect(url: URL, key: string, capabilities = {}) {
  const client = new LegacyClient({ name: `e2e-${key}`, version: '1.0.0' }, { capabilities });
  const transport = new LegacyTransport(url, { requestInit: { headers: { 'X-Api-Key': key } } });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/** The error of a refused subscription, its URI left out. */
const refusalOf = async (client: LegacyClient, uri: string) => {
  const error = await client.subscribeResource({ uri }).then(
    () => undefined,
    (refused: { code: number; message: string; data?: unknown }) => refused,
  );
  expect(error, `subscribing to ${uri}`).toBeDefined();
  return JSON.parse(
    JSON.stringify({
      code: error!.code,
      message: error!.message,
      data: error!.data,
    }).replaceAll(uri, '<uri>'),
  );
};

describe.each(ADAPTERS)('2025 sessions bound to their caller (%s)', (adapter) => {
  let running: RunningApp;
  let runs: MethodRuns;
  let ada: LegacyClient;
  let adaSession: string;
  /** What Ada's client does when the server asks it (the test sets it). */
  let onElicit: (requestId: string | number) => Promise<Record<string, any>>;

  beforeAll(async () => {
    running = await startApp(apiKeyAppModule({ http: { legacySessions: true } }), {
      adapter,
      logger: logs,
    });
    runs = running.app.get(MethodRuns);
  });

  // A session of Ada's own for each test: one test's hijack cannot spoil the next.
  beforeEach(async () => {
    ({ client: ada, sessionId: adaSession } = await connect(running.url, 'key-ada', {
      elicitation: {},
    }));
    ada.setRequestHandler(ElicitRequestSchema, (_request, extra) => onElicit(extra.requestId));
  });

  afterEach(async () => {
    await ada?.close();
  });

  afterAll(async () => {
    await running?.close();
  });

  /** What any caller gets for a session id that never existed. */
  const unknownSession = (init: Parameters<typeof send>[2]) =>
    answer(running.url, 'key-bob', { ...init, sessionId: randomUUID() });

  it('answers another caller’s tools/call with 404 "Session not found", as for an unknown id; the tool never runs', async () => {
    const before = runs.of('who_am_i');
    const body = toolsCall('who_am_i');
    const hijack = await answer(running.url, 'key-bob', { sessionId: adaSession, body });
    expect(hijack.status).toBe(404);
    expect(hijack.message?.error.message).toContain('Session not found');
    expect(hijack).toEqual(await unknownSession({ body }));
    expect(runs.of('who_am_i')).toBe(before);
    // The session is its owner's still.
    expect(textOf(await ada.callTool({ name: 'who_am_i', arguments: {} }))).toBe('You are ada');
  });

  it('answers another caller’s DELETE with 404, and the session still answers its owner', async () => {
    const hijack = await answer(running.url, 'key-bob', {
      method: 'DELETE',
      sessionId: adaSession,
    });
    expect(hijack.status).toBe(404);
    expect(hijack).toEqual(await unknownSession({ method: 'DELETE' }));
    expect((await ada.listTools()).tools.map((tool) => tool.name)).toContain('who_am_i');
    const own = await answer(running.url, 'key-ada', {
      sessionId: adaSession,
      body: toolsList(),
    });
    expect(own.status).toBe(200);
  });

  it('answers another caller’s GET stream and event replay with 404; its owner replays', async () => {
    // An event of Ada's session: the id of an event of her call's response stream.
    const call = await send(running.url, 'key-ada', {
      sessionId: adaSession,
      body: toolsCall('who_am_i'),
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const eventIds = (await call.text()).match(/^id: ?(.+)$/gm) ?? [];
    expect(eventIds.length).toBeGreaterThan(0);
    const lastEventId = eventIds[0]!.replace(/^id: ?/, '');

    const stream = await answer(running.url, 'key-bob', { method: 'GET', sessionId: adaSession });
    expect(stream.status).toBe(404);
    expect(stream).toEqual(await unknownSession({ method: 'GET' }));
    const replay = { 'Last-Event-ID': lastEventId };
    const replayed = await answer(running.url, 'key-bob', {
      method: 'GET',
      sessionId: adaSession,
      headers: replay,
    });
    expect(replayed.status).toBe(404);
    expect(replayed).toEqual(await unknownSession({ method: 'GET', headers: replay }));
    const own = await answer(running.url, 'key-ada', {
      method: 'GET',
      sessionId: adaSession,
      headers: replay,
    });
    expect(own.status).toBe(200);
  });

  it('refuses another caller’s answer to the question a tool of the session asked', async () => {
    let bobsAnswer: WireAnswer | undefined;
    onElicit = async (requestId) => {
      bobsAnswer = await answer(running.url, 'key-bob', {
        sessionId: adaSession,
        body: {
          jsonrpc: '2.0',
          id: requestId,
          result: { action: 'accept', content: { name: 'Mallory' } },
        },
      });
      return { action: 'accept', content: { name: 'Ada' } };
    };
    const result = await ada.callTool({ name: 'ask_name', arguments: {} });
    expect(bobsAnswer?.status).toBe(404);
    expect(bobsAnswer?.message?.error.message).toContain('Session not found');
    expect(textOf(result)).toBe('Hello, Ada');
  });

  describe('resources/subscribe', () => {
    const PRICES = 'catalog://prices';
    const NEWS = 'catalog://news';
    let bob: LegacyClient;
    const heard: Record<'ada' | 'bob', string[]> = { ada: [], bob: [] };

    // After the outer beforeEach: Ada's client is this test's.
    beforeEach(async () => {
      ({ client: bob } = await connect(running.url, 'key-bob'));
      for (const [name, client] of [
        ['ada', ada],
        ['bob', bob],
      ] as const) {
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          heard[name].push(notification.params.uri);
        });
      }
    });

    afterEach(async () => {
      await bob?.close();
    });

    it('refuses a caller that may not read the resource as if the URI named none, and tells only its readers of updates', async () => {
      const refused = await refusalOf(bob, PRICES);
      // -32602 on the 2025 wire: the SDK's codec rewrites -32002 (primitives.e2e-spec.ts).
      expect(refused).toMatchObject({
        code: -32602,
        message: expect.stringContaining('not found'),
      });
      expect(refused).toEqual(await refusalOf(bob, 'catalog://nowhere'));
      // Bob may subscribe to what he may read; Ada (catalog.read) to the prices.
      await bob.subscribeResource({ uri: NEWS });
      await ada.subscribeResource({ uri: PRICES });

      const host = running.app.get(McpServerHost);
      // The sessions' GET streams open after initialize: update until both hear.
      await expect
        .poll(() => {
          host.resourceUpdated(PRICES);
          host.resourceUpdated(NEWS);
          return heard.ada.includes(PRICES) && heard.bob.includes(NEWS);
        }, WAIT)
        .toBe(true);
      expect(heard.bob).not.toContain(PRICES);
      expect(heard.ada).not.toContain(NEWS);
    });
  });
});

describe.each(ADAPTERS)('legacySessions.maxSessionsPerCaller (%s)', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(
      apiKeyAppModule({ http: { legacySessions: { maxSessionsPerCaller: 2 } } }),
      { adapter, logger: logs },
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  const listWith = (key: string, sessionId: string) =>
    answer(running.url, key, { sessionId, body: toolsList() });

  it('closes the stalest session of a caller that opens one more, and no other caller’s', async () => {
    const first = await openSession(running.url, 'key-ada');
    await sleep(5);
    const second = await openSession(running.url, 'key-ada');
    const bobs = await openSession(running.url, 'key-bob');
    await sleep(5);
    // The first is used again: the second is now the stalest of Ada's.
    expect((await listWith('key-ada', first)).status).toBe(200);
    await sleep(5);
    const third = await openSession(running.url, 'key-ada');

    const closed = await listWith('key-ada', second);
    expect(closed.status).toBe(404);
    expect(closed.message?.error.message).toContain('Session not found');
    expect((await listWith('key-ada', first)).status).toBe(200);
    expect((await listWith('key-ada', third)).status).toBe(200);
    expect((await listWith('key-bob', bobs)).status).toBe(200);
  });
});
