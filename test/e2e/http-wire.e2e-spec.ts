import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startFixtureApp, type RunningApp } from '../support/fixture-app.js';
import { MODERN_VERSION as MODERN, modernRequest } from '../support/mcp-post.js';

const ACCEPT = 'application/json, text/event-stream';

/** A 2026-07-28 request of the reader; `name` overrides the `Mcp-Name` header. */
function modernPost(
  app: INestApplication,
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
) {
  return modernRequest(app, path, method, params, {
    Authorization: 'Bearer reader',
    ...(name && { 'Mcp-Name': name }),
  });
}

/** A 2025-era request on the stateless legacy leg. */
function legacyPost(
  app: INestApplication,
  path: string,
  body: Record<string, unknown>,
  version = '2025-11-25',
) {
  return request(app.getHttpServer())
    .post(path)
    .set('Authorization', 'Bearer reader')
    .set('Accept', ACCEPT)
    .set('Content-Type', 'application/json')
    .set('MCP-Protocol-Version', version)
    .send({ jsonrpc: '2.0', ...body });
}

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
function messageOf(res: request.Response): Record<string, any> {
  if (res.headers['content-type']?.startsWith('text/event-stream')) {
    const data = res.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6));
    return JSON.parse(data.at(-1)!);
  }
  return res.body;
}

describe.each(ADAPTERS)('Streamable HTTP endpoint, raw JSON-RPC, on %s', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startFixtureApp({ globalPrefix: 'api', adapter });
    app = running.app;
  });

  afterAll(() => running?.close());

  it('is mounted under the global prefix', async () => {
    const res = await modernPost(app, '/api/mcp', 'tools/list');
    expect(res.status).toBe(200);
    expect(messageOf(res).result.tools.length).toBeGreaterThan(5);
    expect((await modernPost(app, '/mcp', 'tools/list')).status).toBe(404);
  });

  describe('2026-07-28', () => {
    it('answers server/discover with the server identity and instructions', async () => {
      const res = await modernPost(app, '/api/mcp', 'server/discover');
      const { result } = messageOf(res);
      expect(result.supportedVersions).toContain(MODERN);
      expect(result.capabilities.tools).toBeDefined();
      expect(result.instructions).toBe('Fixture tools for the end-to-end tests.');
      expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
        name: 'fixture',
        version: '1.2.3',
      });
    });

    it('calls a tool and returns structured content for an array result', async () => {
      const res = await modernPost(
        app,
        '/api/mcp',
        'tools/call',
        { name: 'list_items', arguments: {} },
        'list_items',
      );
      expect(res.status).toBe(200);
      const { result } = messageOf(res);
      expect(result.resultType).toBe('complete');
      expect(result.structuredContent).toEqual([{ id: expect.any(String), name: 'Widget' }]);
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });

    it('answers an unknown tool with -32602 naming the tool', async () => {
      const res = await modernPost(
        app,
        '/api/mcp',
        'tools/call',
        { name: 'nope', arguments: {} },
        'nope',
      );
      expect(messageOf(res).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('"nope"'),
      });
    });

    it('refuses a request whose Mcp-Name header does not match the body', async () => {
      const res = await modernPost(
        app,
        '/api/mcp',
        'tools/call',
        { name: 'list_items', arguments: {} },
        'echo',
      );
      expect(res.status).toBe(400);
      expect(messageOf(res).error.code).toBe(-32020);
    });
  });

  describe('2025 era (stateless legacy leg)', () => {
    it.each(['2025-11-25', '2025-06-18', '2025-03-26'])(
      'initializes a %s client',
      async (version) => {
        const res = await legacyPost(
          app,
          '/api/mcp',
          {
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: version,
              capabilities: {},
              clientInfo: { name: 'curl', version: '1' },
            },
          },
          version,
        );
        expect(res.status).toBe(200);
        const { result } = messageOf(res);
        expect(result.protocolVersion).toBe(version);
        expect(result.serverInfo).toMatchObject({ name: 'fixture', version: '1.2.3' });
        expect(result.instructions).toBe('Fixture tools for the end-to-end tests.');
        expect(res.headers['mcp-session-id']).toBeUndefined();
      },
    );

    it('wraps a non-object result for 2025 clients', async () => {
      const res = await legacyPost(app, '/api/mcp', {
        id: 2,
        method: 'tools/call',
        params: { name: 'list_items', arguments: {} },
      });
      expect(messageOf(res).result.structuredContent).toEqual({
        result: [{ id: expect.any(String), name: 'Widget' }],
      });
    });

    it('acknowledges a notification with 202 and no body', async () => {
      const res = await legacyPost(app, '/api/mcp', { method: 'notifications/initialized' });
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
    });
  });

  it.each(['get', 'delete'] as const)('answers %s with 405', async (verb) => {
    const agent = request(app.getHttpServer());
    const res = await agent[verb]('/api/mcp')
      .set('Authorization', 'Bearer reader')
      .set('Accept', 'text/event-stream');
    expect(res.status).toBe(405);
  });

  it.each([
    ['Host', 'evil.example.com'],
    ['Origin', 'http://evil.example.com'],
  ])(
    'refuses a foreign %s on the loopback endpoint with 403 (DNS rebinding) and keeps serving',
    async (header, value) => {
      const res = await modernPost(app, '/api/mcp', 'tools/list').set(header, value);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain('evil.example.com');
      // A localhost origin on the server's own port; another port is another site.
      const local = await modernPost(app, '/api/mcp', 'tools/list').set(
        'Origin',
        `http://localhost:${running.url.port}`,
      );
      expect(local.status).toBe(200);
    },
  );

  it('answers a caller without a token with 401 before any MCP processing', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/mcp')
      .set('Accept', ACCEPT)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: 'A bearer token is required' });
  });

  it('answers a non-JSON body with 415 and keeps serving', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/mcp')
      .set('Authorization', 'Bearer reader')
      .set('Accept', ACCEPT)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(res.status).toBe(415);
    expect((await modernPost(app, '/api/mcp', 'tools/list')).status).toBe(200);
  });

  // The endpoint reads its own bodies (see docs/http.md, "Security defaults"): malformed JSON
  // gets a JSON-RPC parse error saying what is wrong, not the platform's 400.
  it('answers malformed JSON with 400 and a JSON-RPC parse error naming the problem, and keeps serving', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/mcp')
      .set('Authorization', 'Bearer reader')
      .set('Accept', ACCEPT)
      .set('Content-Type', 'application/json')
      .send('{"jsonrpc": "2.0", ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(res.body.error.message).toMatch(/^Parse error: the request body is not valid JSON: \S/);
    expect((await modernPost(app, '/api/mcp', 'tools/list')).status).toBe(200);
  });

  it('answers a JSON body that is not JSON-RPC with an invalid-request error', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/mcp')
      .set('Authorization', 'Bearer reader')
      .set('Accept', ACCEPT)
      .set('Content-Type', 'application/json')
      .send({ hello: 'world' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBeLessThan(0);
  });
});
