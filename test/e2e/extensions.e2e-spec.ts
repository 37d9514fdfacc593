/**
 * Extensions declared by the app (SEP-2133) over HTTP, driven by the MCP SDK clients:
 * advertised in `server/discover` and `initialize`, their methods (`@McpMethod()`) run
 * through the app's guards, DTO validation, interceptors, filters and telemetry, refused
 * with `-32021` to a caller that did not declare the extension, and `ctx.extensions` tells
 * a tool what its caller declared. On 2026-07-28 on both platforms and both HTTP paths;
 * on 2025-11-25 with a session (the only place a 2025 client declares anything) and without.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionsAppModule, FLAGS, LEDGER } from '../fixtures/extensions.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { anyResultSchema, errorOf } from '../support/mcp-clients.js';
import { startApp, type HttpAdapterName, type RunningApp } from '../support/fixture-app.js';
import { postModern } from '../support/mcp-post.js';
import { InMemoryOtel } from '../telemetry/in-memory-otel.js';

const logs = captureLogs();

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** A v2 client pinned to 2026-07-28 that declares `extensions` in every request's `_meta`. */
async function modernClient(url: URL, extensions: Record<string, Record<string, boolean>>) {
  const client = new ModernClient(
    { name: 'extensions-e2e', version: '1.0.0' },
    { capabilities: { extensions }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** A v1 client (2025-11-25) that declares `extensions` in `initialize`. */
async function legacyClient(url: URL, extensions: Record<string, object>) {
  const client = new LegacyClient(
    { name: 'extensions-e2e-v1', version: '1.0.0' },
    { capabilities: { extensions } as never },
  );
  await client.connect(new LegacyTransport(url));
  return client;
}

/** A raw 2026-07-28 request that declares `extensions` (what the SDK client sends). */
const declaring = (extensions: Record<string, object>, params: Record<string, unknown> = {}) => ({
  ...params,
  _meta: { [CLIENT_CAPABILITIES]: { extensions } },
});

const HTTP_PATHS: Array<{ adapter: HttpAdapterName; leanPath: boolean }> = [
  { adapter: 'express', leanPath: true },
  { adapter: 'fastify', leanPath: true },
  { adapter: 'express', leanPath: false },
];

describe.each(HTTP_PATHS)(
  'extension methods on 2026-07-28 ($adapter, leanPath: $leanPath)',
  ({ adapter, leanPath }) => {
    let running: RunningApp;
    let client: ModernClient;
    let otel: InMemoryOtel;

    beforeAll(async () => {
      otel = InMemoryOtel.install();
      running = await startApp(extensionsAppModule({ http: { leanPath } }), {
        adapter,
        logger: logs,
      });
      client = await modernClient(running.url, { [LEDGER]: {}, [FLAGS]: { beta: true } });
    });
    afterAll(async () => {
      await client?.close();
      await running?.close();
      await otel?.uninstall();
    });

    const call = (method: string, params: Record<string, unknown> = {}) =>
      client.request({ method, params }, anyResultSchema);

    it('advertises each extension with its settings in server/discover', () => {
      expect(client.getServerCapabilities()?.extensions).toEqual({
        [LEDGER]: { currencies: ['EUR', 'USD'] },
        [FLAGS]: { beta: true },
      });
    });

    it('answers a method with what the provider returns, through its interceptor', async () => {
      const result = await call('com.example/ledger.balance', { currency: 'EUR', months: 3 });
      expect(result).toMatchObject({
        currency: 'EUR',
        months: 3,
        balance: 3750,
        declared: [LEDGER, FLAGS],
        era: 'modern',
        seenBy: 'method:com.example/ledger.balance',
      });
      // Only what the method answers, and the server's `_meta`: no `content`, no wrapping.
      expect(Object.keys(result).toSorted()).toEqual(
        ['_meta', 'balance', 'currency', 'declared', 'era', 'months', 'seenBy'].toSorted(),
      );
    });

    it('answers {} for a method that returns nothing, and takes plain params as they come', async () => {
      const { _meta, ...touched } = await call('com.example/ledger.touch');
      expect(touched).toEqual({});
      expect(await call('com.example/flags.get', { names: ['beta'] })).toMatchObject({
        flags: { beta: true },
        asked: { names: ['beta'] },
      });
    });

    it('validates params with the DTO and says what to fix', async () => {
      const error = await errorOf(
        call('com.example/ledger.balance', { currency: 'GBP', months: 13 }),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/currency: currency must be one of "EUR", "USD"/);
      expect(error.message).toMatch(/months must not be greater than 12/);
    });

    it('runs the guard first: a refused caller gets 403 and learns nothing of the params', async () => {
      const { message } = await postModern(
        running.app,
        '/mcp',
        'com.example/ledger.balance',
        declaring({ [LEDGER]: {} }, { currency: 'GBP' }),
        { 'x-deny': '1' },
      );
      expect(message.error.message).toMatch(/The ledger is closed to this caller/);
      expect(message.error.message).not.toMatch(/currency/);
    });

    it("answers with the filter's result when the method throws what a filter catches", async () => {
      expect(await call('com.example/ledger.close')).toMatchObject({
        closed: true,
        reason: 'month-end closing runs until 06:00',
      });
    });

    it('fails a method that answers with a non-object as an internal error, and logs it', async () => {
      const error = await errorOf(call('com.example/ledger.broken'));
      expect(error.code).toBe(-32603);
      logs.expectError('com.example/ledger.broken', /object/);
    });

    it('refuses a caller that did not declare the extension with -32021 and HTTP 400', async () => {
      const { status, message } = await postModern(
        running.app,
        '/mcp',
        'com.example/ledger.touch',
        declaring({ [FLAGS]: {} }),
      );
      expect(status).toBe(400);
      expect(message.error.code).toBe(-32021);
      expect(message.error.data.requiredCapabilities).toEqual({ extensions: { [LEDGER]: {} } });
      expect(message.error.message).toContain(
        `declare "${LEDGER}" in params._meta["${CLIENT_CAPABILITIES}"].extensions`,
      );
    });

    it('answers a method no extension adds with -32601', async () => {
      // Declaring the extension changes nothing: the method is not one of its.
      const { status, message } = await postModern(
        running.app,
        '/mcp',
        'com.example/ledger.unknown',
        declaring({ [LEDGER]: {} }),
      );
      expect(message.error.code).toBe(-32601);
      expect(status).toBe(404);
    });

    it('tells a tool which extensions this request declared (ctx.extensions)', async () => {
      const declared = await client.callTool({ name: 'declared_extensions', arguments: {} });
      expect(declared.structuredContent).toEqual({
        declared: { [LEDGER]: {}, [FLAGS]: { beta: true } },
      });
      const { message } = await postModern(
        running.app,
        '/mcp',
        'tools/call',
        declaring({ [FLAGS]: { beta: false } }, { name: 'declared_extensions', arguments: {} }),
      );
      expect(message.result.structuredContent).toEqual({ declared: { [FLAGS]: { beta: false } } });
    });

    it('gives a method call its span, named by the method, and an error span its status', async () => {
      otel.spans.reset();
      await call('com.example/ledger.touch');
      await errorOf(call('com.example/ledger.balance', { currency: 'GBP' }));
      const spans = otel.spans
        .getFinishedSpans()
        .filter(
          (span) =>
            span.instrumentationScope.name === 'nestjs-mcp' && span.kind === SpanKind.SERVER,
        );
      expect(spans.map((span) => span.attributes['mcp.method.name'])).toEqual([
        'com.example/ledger.touch',
        'com.example/ledger.balance',
      ]);
      expect(spans[0]!.status.code).not.toBe(SpanStatusCode.ERROR);
      expect(spans[1]!.status.code).toBe(SpanStatusCode.ERROR);
    });
  },
);

describe('extension methods on 2025-11-25', () => {
  let stateless: RunningApp;
  let sessions: RunningApp;

  beforeAll(async () => {
    stateless = await startApp(extensionsAppModule(), { logger: logs });
    sessions = await startApp(extensionsAppModule({ http: { legacySessions: true } }), {
      logger: logs,
    });
  });
  afterAll(async () => {
    await stateless?.close();
    await sessions?.close();
  });

  it('advertises the extensions in initialize, with the built-in ones', async () => {
    const client = await legacyClient(stateless.url, {});
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({
        [LEDGER]: { currencies: ['EUR', 'USD'] },
        [FLAGS]: { beta: true },
      });
    } finally {
      await client.close();
    }
  });

  it('serves a session that declared the extension in initialize, guarded and validated', async () => {
    const client = await legacyClient(sessions.url, { [LEDGER]: {} });
    try {
      const result = await client.request(
        { method: 'com.example/ledger.balance', params: { currency: 'USD' } },
        ResultSchema.passthrough(),
      );
      expect(result).toMatchObject({
        currency: 'USD',
        months: 1,
        declared: [LEDGER],
        era: 'legacy',
        seenBy: 'method:com.example/ledger.balance',
      });
      const invalid = await errorOf(
        client.request({ method: 'com.example/ledger.balance', params: {} }, ResultSchema),
      );
      expect(invalid.code).toBe(-32602);
      // This session did not declare FLAGS in initialize.
      const undeclared = await errorOf(
        client.request({ method: 'com.example/flags.get', params: {} }, ResultSchema),
      );
      expect(undeclared.code).toBe(-32021);
      expect(undeclared.message).toContain('in capabilities.extensions of initialize');
    } finally {
      await client.close();
    }
  });

  it('refuses it without a session: a stateless 2025 request declares no extension', async () => {
    const client = await legacyClient(stateless.url, { [LEDGER]: {} });
    try {
      const error = await errorOf(
        client.request({ method: 'com.example/ledger.touch', params: {} }, ResultSchema),
      );
      expect(error.code).toBe(-32021);
      expect(error.message).toMatch(/legacySessions|stdio|2026-07-28/);
    } finally {
      await client.close();
    }
  });

  it('tells a tool which extensions the session declared', async () => {
    const client = await legacyClient(sessions.url, { [FLAGS]: { beta: true } });
    try {
      const result = await client.callTool({ name: 'declared_extensions', arguments: {} });
      expect(result.structuredContent).toEqual({ declared: { [FLAGS]: { beta: true } } });
    } finally {
      await client.close();
    }
  });
});
