import { Module, type INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpModule, McpServerHost } from 'nestjs-mcp';
import {
  AdminOnlyGuard,
  CallLog,
  PrimitivesFixtureModule,
  PrimitivesService,
} from '../fixtures/primitives.fixture.js';
import { captureLogs, referenceIn } from '../support/captured-logs.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';
import { postModern } from '../support/mcp-post.js';
import supertest from 'supertest';

const PNG_PREFIX = 'iVBORw0KGgo';

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

async function listAll(client: TestClient, method: string, key: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.sdk[method](cursor ? { cursor } : undefined);
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

describe.each(ADAPTERS)(
  'prompts, resources, completions and the call context over HTTP (%s)',
  (adapter) => {
    let app: INestApplication;
    let url: URL;

    beforeAll(async () => {
      ({ app, url } = await startApp(PrimitivesFixtureModule, { adapter, logger: logs }));
    });

    afterAll(() => app.close());

    describe.each(CLIENTS)('$era', ({ connect }) => {
      let client: TestClient;
      beforeAll(async () => {
        client = await connect(url);
      });
      afterAll(() => client.close());

      it('promises list-changed notifications (sessions carry them on the 2025 wire)', () => {
        expect(client.sdk.getServerCapabilities()).toMatchObject({
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          completions: {},
        });
      });

      it('lists page by page (pageSize 2) with opaque cursors', async () => {
        const first = await client.sdk.listResources({ cursor: '' });
        expect(first.resources.map((r: { uri: string }) => r.uri)).toEqual([
          'fixture://changelog',
          'fixture://logo.png',
        ]);
        const second = await client.sdk.listResources({ cursor: first.nextCursor });
        expect(second.resources.map((r: { uri: string }) => r.uri)).toEqual(['fixture://readme']);
        expect(second.nextCursor).toBeUndefined();
      });

      it('lists prompts with arguments from the DTO, leaving out those whose guards refuse', async () => {
        const prompts = await listAll(client, 'listPrompts', 'prompts');
        expect(prompts.map((p) => p.name)).toEqual(['chart_review', 'summarize']);
        expect(prompts[1].arguments).toEqual([
          { name: 'category', required: true },
          { name: 'count', required: false },
          { name: 'topic', required: false },
        ]);
      });

      it('gets a prompt with string arguments converted to the DTO types', async () => {
        const result = await client.sdk.getPrompt({
          name: 'summarize',
          arguments: { category: 'books', count: '4' },
        });
        expect(result.messages).toEqual([
          {
            role: 'user',
            content: { type: 'text', text: 'Summarize 4 books (count is a number).' },
          },
        ]);
      });

      it('refuses prompt arguments that fail the DTO with -32602 naming each problem', async () => {
        const error = await client.sdk
          .getPrompt({ name: 'summarize', arguments: { category: 'cars', count: '40' } })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32602 });
        expect(String((error as Error).message)).toContain('/category');
        expect(String((error as Error).message)).toContain('/count');
      });

      it('answers an unknown prompt with -32602', async () => {
        const error = await client.sdk.getPrompt({ name: 'nope' }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32602 });
        expect(String((error as Error).message)).toContain('prompts/list');
      });

      it('gets a prompt with image content', async () => {
        const result = await client.sdk.getPrompt({ name: 'chart_review' });
        expect(result.messages[0].content).toMatchObject({ type: 'image', mimeType: 'image/png' });
        expect(result.messages[1].content).toEqual({
          type: 'text',
          text: 'Please analyze the image above.',
        });
      });

      it('lists static resources and templates', async () => {
        const resources = await listAll(client, 'listResources', 'resources');
        expect(resources.map((r) => r.uri)).toEqual([
          'fixture://changelog',
          'fixture://logo.png',
          'fixture://readme',
        ]);
        expect(resources[2]).toMatchObject({
          name: 'readme',
          description: 'The readme.',
          mimeType: 'text/markdown',
        });
        const templates = await listAll(client, 'listResourceTemplates', 'resourceTemplates');
        expect(templates.map((t) => t.uriTemplate)).toEqual([
          'fixture://items/{id}',
          'fixture://search{?q,limit}',
        ]);
      });

      it('reads text and binary resources', async () => {
        const text = await client.sdk.readResource({ uri: 'fixture://readme' });
        expect(text.contents).toEqual([
          { uri: 'fixture://readme', mimeType: 'text/markdown', text: '# Fixture' },
        ]);
        const binary = await client.sdk.readResource({ uri: 'fixture://logo.png' });
        expect(binary.contents[0]).toMatchObject({
          uri: 'fixture://logo.png',
          mimeType: 'image/png',
        });
        expect(binary.contents[0].blob.startsWith(PNG_PREFIX)).toBe(true);
      });

      it('reads a template resource with typed, validated variables', async () => {
        const read = await client.sdk.readResource({ uri: 'fixture://items/42' });
        expect(JSON.parse(read.contents[0].text)).toEqual({ id: 42, idType: 'number' });
        expect(read.contents[0].mimeType).toBe('application/json');
        const query = await client.sdk.readResource({ uri: 'fixture://search?q=lamp&limit=5' });
        expect(JSON.parse(query.contents[0].text)).toEqual({ q: 'lamp', limit: 5 });
        // Query variables are optional and order-free; values arrive decoded.
        const partial = await client.sdk.readResource({
          uri: 'fixture://search?limit=7&q=desk%20lamp',
        });
        expect(JSON.parse(partial.contents[0].text)).toEqual({ q: 'desk lamp', limit: 7 });
        const none = await client.sdk.readResource({ uri: 'fixture://search' });
        expect(JSON.parse(none.contents[0].text)).toEqual({ q: null, limit: null });
        const invalid = await client.sdk
          .readResource({ uri: 'fixture://items/0' })
          .catch((e: unknown) => e);
        expect(invalid).toMatchObject({ code: -32602 });
        expect(String((invalid as Error).message)).toContain('/id');
      });

      it('answers a resource that is not there with the error of the negotiated revision', async () => {
        for (const uri of ['fixture://nothing', 'fixture://items/101']) {
          const error = await client.sdk.readResource({ uri }).catch((e: unknown) => e);
          expect(String((error as Error).message)).toContain(uri);
          expect((error as { data?: { uri?: string } }).data?.uri).toBe(uri);
          // -32602 on both wires: the library raises -32002 toward 2025-era clients, as
          // 2025-11-25 words it, but the SDK's 2025 codec rewrites it to -32602 (docs/prompts-and-resources.md).
          expect((error as { code: number }).code).toBe(-32602);
        }
      });

      it('completes from IsIn values and from a completer (at most 100, with total and hasMore)', async () => {
        const listed = await client.sdk.complete({
          ref: { type: 'ref/prompt', name: 'summarize' },
          argument: { name: 'category', value: 'b' },
        });
        expect(listed.completion).toEqual({
          values: ['books', 'board-games', 'bikes'],
          total: 3,
          hasMore: false,
        });
        const dynamic = await client.sdk.complete({
          ref: { type: 'ref/prompt', name: 'summarize' },
          argument: { name: 'topic', value: 'topic-' },
        });
        expect(dynamic.completion.values).toHaveLength(100);
        expect(dynamic.completion).toMatchObject({ total: 150, hasMore: true });
      });

      it('masks a failing completer as an internal error with a log reference', async () => {
        const error = await client.sdk
          .complete({
            ref: { type: 'ref/prompt', name: 'summarize' },
            argument: { name: 'count', value: '1' },
          })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32603 });
        const message = String((error as Error).message);
        expect(message).toMatch(/Internal error \(reference \w+\)/);
        expect(message).not.toContain('hunter2');
        expect(JSON.stringify(error)).not.toMatch(/hunter2|db\.ts/);
        logs.expectError(
          '[Completion] The completer of "count" (prompt summarize) failed',
          `[ref ${referenceIn(message)}]`,
          'Error: database password=hunter2 at /srv/app/db.ts',
          /at PrimitivesService\.brokenCounts /,
        );
      });

      it('refuses an invalid cursor with -32602', async () => {
        const error = await client.sdk
          .listTools({ cursor: 'not-a-cursor' })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ code: -32602 });
      });

      it('reports rising progress and honours cancellation end to end', async () => {
        const log = app.get(CallLog);
        const before = log.aborted.length;
        const progress: Array<{ progress: number; total?: number; message?: string }> = [];
        const controller = new AbortController();
        const options = {
          signal: controller.signal,
          onprogress: (update: { progress: number; total?: number; message?: string }) => {
            progress.push(update);
            if (update.progress === 2) controller.abort('user pressed stop');
          },
        };
        const params = { name: 'slow_count', arguments: {} };
        // v1's callTool takes a result schema before the options; v2's does not.
        const call = client.label.startsWith('v1')
          ? client.sdk.callTool(params, undefined, options)
          : client.sdk.callTool(params, options);
        await expect(call).rejects.toThrow();
        await expect.poll(() => log.aborted.length).toBe(before + 1);
        expect(progress).toEqual([
          { progress: 1, total: 3, message: 'one' },
          { progress: 2, total: 3, message: 'two' },
        ]);
      });

      it('completes the slow tool when it is not cancelled', async () => {
        const log = app.get(CallLog);
        log.waiting.length = 0;
        const call = client.callTool('slow_count', {});
        await expect.poll(() => log.waiting.length).toBe(1);
        log.waiting[0]();
        expect((await call).content).toEqual([{ type: 'text', text: 'done' }]);
      });
    });

    it('publishes tools added at run time through the same pipeline, and withdraws them', async () => {
      const host = app.get(McpServerHost);
      const client = await CLIENTS[1].connect(url);
      try {
        host.addTool(app.get(PrimitivesService), 'readme', {
          name: 'readme_tool',
          description: 'x',
        });
        const tools = await listAll(client, 'listTools', 'tools');
        expect(tools.map((t) => t.name)).toContain('readme_tool');
        expect((await client.callTool('readme_tool', {})).content).toEqual([
          { type: 'text', text: '# Fixture' },
        ]);
        expect(host.removeTool('readme_tool')).toBe(true);
        const after = await listAll(client, 'listTools', 'tools');
        expect(after.map((t) => t.name)).not.toContain('readme_tool');
      } finally {
        await client.close();
      }
    });

    it('asks the user through input_required on 2026-07-28, with signed request state', async () => {
      const { Client, StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/client');
      const client = new Client(
        { name: 'mrtr', version: '1.0.0' },
        {
          versionNegotiation: { mode: { pin: '2026-07-28' } },
          capabilities: { elicitation: { form: {} } },
        },
      );
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { confirm: true } };
      });
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        const result = await client.callTool({ name: 'confirm_delete', arguments: {} });
        expect(asked).toEqual(['Delete item 7?']);
        expect(result.content).toEqual([{ type: 'text', text: 'deleted item 7' }]);
      } finally {
        await client.close();
      }
    });

    it('asks a 2025-era client through a real elicitation request on its session', async () => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
      const client = new Client(
        { name: 'v1-elicitation', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(String(request.params.message));
        return { action: 'accept', content: { confirm: false } };
      });
      const transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      try {
        expect(transport.sessionId).toEqual(expect.any(String));
        const result = await client.callTool({ name: 'confirm_delete', arguments: {} });
        expect(asked).toEqual(['Delete item 7?']);
        expect(result.content).toEqual([{ type: 'text', text: 'kept' }]);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });

    it('pushes list changes to a 2025 session on its GET stream', async () => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const { ToolListChangedNotificationSchema } =
        await import('@modelcontextprotocol/sdk/types.js');
      const client = new Client({ name: 'v1-listener', version: '1.0.0' });
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      });
      const transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      const host = app.get(McpServerHost);
      try {
        // The client opens its GET stream after initialize; wait until the server pushes.
        await expect
          .poll(() => {
            host.addTool(app.get(PrimitivesService), 'readme', {
              name: 'pushed',
              description: 'x',
            });
            host.removeTool('pushed');
            return changes;
          })
          .toBeGreaterThan(0);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    });
  },
);

describe('listTemplatesAsResources', () => {
  it('lists templates after the resources, for clients that never ask for templates', async () => {
    @Module({
      imports: [
        McpModule.forRoot({ name: 'templates', version: '1.0.0', listTemplatesAsResources: true }),
      ],
      providers: [PrimitivesService, CallLog, AdminOnlyGuard],
    })
    class TemplatesAsResourcesModule {}
    const { app, url } = await startApp(TemplatesAsResourcesModule, { logger: logs });
    const client = await CLIENTS[0].connect(url);
    try {
      const { resources } = await client.sdk.listResources();
      expect(resources.map((r: { uri: string }) => r.uri)).toEqual([
        'fixture://changelog',
        'fixture://logo.png',
        'fixture://readme',
        'fixture://items/{id}',
        'fixture://search{?q,limit}',
      ]);
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe('long-lived streams', () => {
  it('tells a 2026-07-28 listen stream of list changes, and app.close() ends both kinds of stream', async () => {
    const { app, url } = await startApp(PrimitivesFixtureModule, { logger: logs });
    const modern = await CLIENTS[1].connect(url);
    let changes = 0;
    modern.sdk.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    const subscription = await modern.sdk.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    // A 2025 session keeps its GET stream open as well.
    const legacy = await CLIENTS[0].connect(url);
    await legacy.listTools();

    const host = app.get(McpServerHost);
    host.addTool(app.get(PrimitivesService), 'readme', { name: 'late', description: 'x' });
    await expect.poll(() => changes).toBe(1);

    // Neither stream may keep the HTTP server from closing.
    await app.close();
    expect(await subscription.closed).not.toBe('local');
    await modern.close();
    await legacy.close();
  });
});

describe('request state of a multi round-trip call', () => {
  it('is refused when tampered with or replayed with other credentials', async () => {
    const { app } = await startApp(PrimitivesFixtureModule, { logger: logs });
    const elicitation = {
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const round = (token: string, extra: Record<string, unknown> = {}) =>
      postModern(
        app,
        '/mcp',
        'tools/call',
        { name: 'confirm_delete', arguments: {}, _meta: elicitation, ...extra },
        { Authorization: `Bearer ${token}` },
      );
    try {
      const first = await round('alice');
      expect(first.message.result).toMatchObject({ resultType: 'input_required' });
      const { requestState } = first.message.result;
      const inputResponses = { confirm: { action: 'accept', content: { confirm: true } } };

      const ok = await round('alice', { inputResponses, requestState });
      expect(ok.message.result.content).toEqual([{ type: 'text', text: 'deleted item 7' }]);

      for (const [token, state] of [
        ['mallory', requestState],
        ['alice', `${requestState.slice(0, -2)}xx`],
      ]) {
        const refused = await round(token, { inputResponses, requestState: state });
        expect(refused.message.error).toMatchObject({
          code: -32602,
          message: 'Invalid or expired requestState',
        });
      }
    } finally {
      await app.close();
    }
  });
});

describe('2025 sessions', () => {
  it('answer only to the credentials that opened them', async () => {
    const { app } = await startApp(PrimitivesFixtureModule, { logger: logs });
    const post = (token: string, body: object, sessionId?: string) => {
      const req = supertest(app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Content-Type', 'application/json')
        .set('MCP-Protocol-Version', '2025-11-25')
        .set('Authorization', `Bearer ${token}`);
      if (sessionId) req.set('Mcp-Session-Id', sessionId);
      return req.send(body);
    };
    try {
      const opened = await post('alice', {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      });
      const sessionId = opened.headers['mcp-session-id'];
      expect(sessionId).toEqual(expect.any(String));
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      expect((await post('alice', list, sessionId)).status).toBe(200);
      const stolen = await post('mallory', list, sessionId);
      expect(stolen.status).toBe(404);
      expect(stolen.body.error.message).toContain('Session not found');
    } finally {
      await app.close();
    }
  });
});
