import { McpServer, type AuthInfo, type EventStore } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LegacySessionOptions } from '../../../lib/interfaces/mcp-http-options.interface.js';
import { defaultCallerIdentity } from '../../../lib/authorization/caller-identity.js';
import {
  LegacySessionRouter,
  type SharedSessionSettings,
} from '../../../lib/transports/http/legacy-session.router.js';
import { SessionEventStore } from '../../../lib/transports/http/session-event.store.js';
import { captureLogs } from '../../support/captured-logs.js';

const VERSION = '2025-11-25';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: 'unit', version: '1' },
  },
};
const TOOLS_LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

const logs = captureLogs();
let previousLogger: unknown;
beforeAll(() => {
  previousLogger = (Logger as unknown as { staticInstanceRef?: unknown }).staticInstanceRef;
  Logger.overrideLogger(logs);
});
afterAll(() => {
  Logger.overrideLogger((previousLogger as never) ?? false);
});

const routers: LegacySessionRouter[] = [];
afterEach(async () => {
  await Promise.all(routers.splice(0).map((router) => router.close()));
});

/** A router whose sessions each get a new SDK server with one tool; the servers it made. */
function routerOf(options?: LegacySessionOptions, shared?: SharedSessionSettings) {
  const servers: McpServer[] = [];
  const router = new LegacySessionRouter(
    () => {
      const server = new McpServer({ name: 'catalog', version: '1.0.0' });
      server.registerTool('ping', { description: 'Answers pong.' }, async () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
      servers.push(server);
      return server;
    },
    options,
    shared,
  );
  routers.push(router);
  return { router, servers };
}

interface Call {
  session?: string;
  authorization?: string;
  authInfo?: AuthInfo;
  method?: string;
}

/** One request as the endpoint hands it over: the web request, its parsed body, its auth. */
function send(router: LegacySessionRouter, body: unknown, call: Call = {}): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...(call.session && { 'mcp-session-id': call.session, 'mcp-protocol-version': VERSION }),
    ...(call.authorization && { authorization: call.authorization }),
  };
  const method = call.method ?? 'POST';
  const request = new Request('http://localhost/mcp', {
    method,
    headers,
    ...(method === 'POST' && { body: JSON.stringify(body) }),
  });
  // The endpoint resolves the caller's identity once per request, from the platform request.
  const identity = defaultCallerIdentity({
    headers: { ...(call.authorization && { authorization: call.authorization }) },
    ...(call.authInfo && { auth: call.authInfo }),
  });
  return router.handle(request, { parsedBody: body, authInfo: call.authInfo, identity });
}

/** The last JSON-RPC message of an answer, sent as JSON or as server-sent events. */
async function messageOf(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return JSON.parse(text);
  }
  const data = text.split('\n').filter((line) => line.startsWith('data: {'));
  return JSON.parse(data.at(-1)!.slice('data: '.length));
}

/** Opens a session: its id, after checking the initialize answer. */
async function open(router: LegacySessionRouter, call: Call = {}): Promise<string> {
  const response = await send(router, INITIALIZE, call);
  expect(response.status).toBe(200);
  expect((await messageOf(response)).result?.protocolVersion).toBe(VERSION);
  return response.headers.get('mcp-session-id')!;
}

const NOT_FOUND = {
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Session not found: initialize a new session.' },
  id: null,
};

describe('LegacySessionRouter', () => {
  it('opens a session with its own server on initialize, and serves it by its id', async () => {
    const { router, servers } = routerOf();
    const first = await open(router);
    const second = await open(router);
    expect(first).not.toBe(second);
    expect(servers).toHaveLength(2);

    const listed = await send(router, TOOLS_LIST, { session: first });
    expect(listed.headers.get('mcp-session-id')).toBe(first);
    expect(
      (await messageOf(listed)).result.tools.map((tool: { name: string }) => tool.name),
    ).toEqual(['ping']);
  });

  it('asks a request without a session to initialize first', async () => {
    const { router, servers } = routerOf();
    for (const answer of [
      await send(router, TOOLS_LIST),
      await send(router, undefined, { method: 'GET' }),
    ]) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message:
            'Bad Request: send the Mcp-Session-Id header this server returned to initialize, or initialize first.',
        },
        id: null,
      });
    }
    expect(servers).toEqual([]);
  });

  it('answers an unknown session id with 404', async () => {
    const { router } = routerOf();
    const answer = await send(router, TOOLS_LIST, { session: 'no-such-session' });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual(NOT_FOUND);
  });

  it('serves a session only to the caller that opened it', async () => {
    const { router } = routerOf();
    const claims = { iss: 'https://id.example', sub: 'alice' };
    const alice = {
      authorization: 'Bearer alice',
      authInfo: { token: 'a', clientId: 'app', scopes: [], extra: { claims } },
    };
    const session = await open(router, alice);

    for (const other of [
      // Another subject of the same client, or the same subject at another issuer.
      {
        authorization: 'Bearer bob',
        authInfo: { ...alice.authInfo, extra: { claims: { ...claims, sub: 'bob' } } },
      },
      {
        authorization: 'Bearer alice',
        authInfo: {
          ...alice.authInfo,
          extra: { claims: { ...claims, iss: 'https://other.example' } },
        },
      },
      // No OAuth principal: then the credentials themselves, or none.
      { authorization: 'Bearer alice' },
      {},
    ]) {
      const answer = await send(router, TOOLS_LIST, { session, ...other });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual(NOT_FOUND);
    }
    expect((await send(router, TOOLS_LIST, { session, ...alice })).status).toBe(200);
  });

  it('refuses a session beyond maxSessions until one ends', async () => {
    const { router } = routerOf({ maxSessions: 1 });
    const session = await open(router);
    const refused = await send(router, INITIALIZE);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Too many sessions; retry later.' },
      id: null,
    });

    expect((await send(router, undefined, { session, method: 'DELETE' })).status).toBe(200);
    expect((await send(router, TOOLS_LIST, { session })).status).toBe(404);
    await open(router);
  });

  it('closes the stalest session of a caller over maxSessionsPerCaller, and no one else’s', async () => {
    const { router } = routerOf({ maxSessionsPerCaller: 2 });
    const alice = { authorization: 'Bearer alice' };
    const bob = { authorization: 'Bearer bob' };
    const first = await open(router, alice);
    await sleep(5);
    const second = await open(router, alice);
    await sleep(5);
    // The first is used again: the second is now the one left longest without a request.
    expect((await send(router, TOOLS_LIST, { session: first, ...alice })).status).toBe(200);
    const bobs = await open(router, bob);
    await sleep(5);
    const third = await open(router, alice);
    expect((await send(router, TOOLS_LIST, { session: second, ...alice })).status).toBe(404);
    for (const [session, caller] of [
      [first, alice],
      [third, alice],
      [bobs, bob],
    ] as const) {
      expect((await send(router, TOOLS_LIST, { session, ...caller })).status).toBe(200);
    }
  });

  it('closes a session left idle for idleTimeoutMs, and its server', async () => {
    const { router, servers } = routerOf({ idleTimeoutMs: 50 });
    const session = await open(router);
    expect(servers[0]!.isConnected()).toBe(true);
    await sleep(200);
    expect((await send(router, TOOLS_LIST, { session })).status).toBe(404);
    expect(servers[0]!.isConnected()).toBe(false);
    expect(logs.messages('debug', 'LegacySessionRouter')).toContain(
      `MCP session ${session} closed after 50 ms without requests`,
    );
  });

  it('closes every session on close()', async () => {
    const { router, servers } = routerOf();
    const sessions = [await open(router), await open(router)];
    await router.close();
    expect(servers.map((server) => server.isConnected())).toEqual([false, false]);
    for (const session of sessions) {
      expect((await send(router, TOOLS_LIST, { session })).status).toBe(404);
    }
  });
});

/** A router of the instance `instance-a` of a scaled-out app, and the event stores it asked for. */
function sharedRouter() {
  const stores = new Map<string, EventStore>();
  const { router } = routerOf(undefined, {
    instanceId: 'instance-a',
    eventStoreOf: (sessionId) => {
      const store = new SessionEventStore();
      stores.set(sessionId, store);
      return store;
    },
  });
  return { router, stores };
}

describe('LegacySessionRouter with scaleOut', () => {
  it("prefixes each session id with the instance's, and keeps its events in the shared store", async () => {
    const { router, stores } = sharedRouter();
    const session = await open(router);
    expect(session).toMatch(/^instance-a\.[0-9a-f-]{36}$/);
    expect([...stores.keys()]).toEqual([session]);
  });

  it('tells a request for a session of another instance where that session lives', async () => {
    const { router } = sharedRouter();
    const answer = await send(router, TOOLS_LIST, { session: 'instance-b.1234' });
    expect(answer.status).toBe(404);
    expect((await answer.json()).error).toEqual({
      code: -32001,
      message:
        'Session not found on this instance (instance-a): it was opened on instance instance-b. ' +
        'A 2025 session stays on the instance that opened it: route every request with its ' +
        'Mcp-Session-Id there (sticky sessions, docs/scale-out.md), or initialize a new session.',
    });
  });

  it('answers plainly for an unknown session of its own, or an id of no instance', async () => {
    const { router } = sharedRouter();
    for (const session of ['instance-a.gone', 'no-instance']) {
      expect(await (await send(router, TOOLS_LIST, { session })).json()).toEqual(NOT_FOUND);
    }
  });
});
