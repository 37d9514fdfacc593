import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { McpModule } from 'nestjs-mcp';
import { McpTestClient } from 'nestjs-mcp/testing';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CalculatorTools, calculatorModule } from './calculator.fixture.js';

const READER = { authorization: 'Bearer reader' };

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const closable of opened.splice(0).toReversed()) await closable.close();
});

async function createApp(
  module = calculatorModule(),
  configure: (app: INestApplication) => void = () => {},
  adapter: 'express' | 'fastify' = 'express',
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [module] }).compile();
  const platform = adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
  const app = moduleRef.createNestApplication(platform, { logger: ['error'] });
  configure(app);
  await app.init();
  opened.push(app);
  return app;
}

async function connect(
  app: INestApplication,
  options: Parameters<typeof McpTestClient.connect>[1],
) {
  const mcp = await McpTestClient.connect(app, options);
  opened.push(mcp);
  return mcp;
}

describe('McpTestClient.connect()', () => {
  it.each(['2025-06-18', '2025-03-26'] as const)(
    'performs the %s handshake',
    async (protocolVersion) => {
      const app = await createApp();
      const mcp = await connect(app, { protocolVersion, headers: READER });
      await mcp.callTool('add', { a: 2, b: 2 }).assertOk().assertText('4');
    },
  );

  it('refuses a protocol revision it does not speak, naming those it does', async () => {
    const app = await createApp();
    await expect(
      McpTestClient.connect(app, { protocolVersion: '2024-11-05' as never }),
    ).rejects.toThrow(
      'McpTestClient speaks the protocol revisions 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, not "2024-11-05".',
    );
  });

  it.each(['express', 'fastify'] as const)(
    'listens on 127.0.0.1 while open and stops listening on close() (%s)',
    async (adapter) => {
      const app = await createApp(calculatorModule(), () => {}, adapter);
      const server = app.getHttpServer();
      expect(server.listening).toBe(false);
      const mcp = await McpTestClient.connect(app, { headers: READER });
      expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
      await mcp.callTool('add', { a: 1, b: 1 }).assertText('2');
      await mcp.close();
      expect(server.listening).toBe(false);
    },
  );

  it('uses an app that listens already where it listens, and leaves it open', async () => {
    const app = await createApp();
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const mcp = await McpTestClient.connect(app, { headers: READER });
    await mcp.callTool('add', { a: 1, b: 1 }).assertText('2');
    await mcp.close();
    expect((app.getHttpServer().address() as AddressInfo).port).toBe(port);
  });

  it('finds the endpoint below the global prefix and a custom path', async () => {
    const app = await createApp(calculatorModule({ http: { path: 'tools/mcp' } }), (created) =>
      created.setGlobalPrefix('api/v1'),
    );
    const mcp = await connect(app, {});
    await mcp.callTool('add', { a: 1, b: 2 }).assertText('3').assertStatus(200);
  });

  it('sends the locale as Accept-Language, and the headers of as() over its own', async () => {
    const app = await createApp();
    const mcp = await connect(app, { headers: READER, locale: 'de-CH' });
    await mcp.callTool('who_am_i').assertText('reader in de-CH');
    await mcp
      .as({ Authorization: 'Bearer admin' })
      .callTool('who_am_i')
      .assertText('admin in de-CH');
  });

  it('refuses a request body over http.maxBodyBytes with 413 and the JSON-RPC error', async () => {
    const app = await createApp(calculatorModule({ http: { maxBodyBytes: 2_000 } }));
    const mcp = await connect(app, {});
    await mcp
      .callTool('add', { a: 1, b: 2, padding: 'x'.repeat(3_000) })
      .assertStatus(413)
      .assertError(-32000)
      .assertError('Payload Too Large');
  });

  it('answers an unknown method with -32601', async () => {
    const app = await createApp();
    await (await connect(app, { headers: READER })).send('tools/frobnicate').assertError(-32601);
  });

  it('says what to do when a call asks for input and the request has no answer()', async () => {
    const app = await createApp();
    const mcp = await connect(app, { headers: READER });
    await expect(Promise.resolve(mcp.callTool('clear_history'))).rejects.toThrow(
      /The server asked for input \(elicitation\/create: "Clear the history\?"\) and this request has no answer/,
    );
  });
});

describe('several servers', () => {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'left', version: '1.0.0', http: { path: 'left' } }),
      McpModule.forRoot({ name: 'right', version: '1.0.0', http: false }),
    ],
    providers: [CalculatorTools],
  })
  class TwoServersModule {}

  it('asks for a server name when the app has several', async () => {
    const app = await createApp(TwoServersModule);
    await expect(McpTestClient.connect(app)).rejects.toThrow(
      /^The app has several MCP servers \("(left|right)", "(left|right)"\): choose one with McpTestClient\.connect\(app, \{ server: '<name>' \}\), or mcp\.onServer\('<name>'\)\.$/,
    );
    await expect(McpTestClient.connect(app, { server: 'middle' })).rejects.toThrow(
      /^The module has no MCP server named "middle"; its servers are: (left, right|right, left)\. Pass one of these names/,
    );
  });

  it('talks over HTTP to a server with an endpoint, in memory to one with http: false', async () => {
    const app = await createApp(TwoServersModule);
    const left = await connect(app, { server: 'left' });
    const answer = await left.callTool('add', { a: 1, b: 2 }).assertText('3');
    expect(answer.response?.status).toBe(200);
    const right = await left.onServer('right').callTool('add', { a: 1, b: 2 }).assertText('3');
    expect(right.response).toBeUndefined();
  });

  it('drives an application context in memory', async () => {
    const context = await NestFactory.createApplicationContext(TwoServersModule, {
      logger: ['error'],
    });
    opened.push(context);
    const mcp = await McpTestClient.connect(context, {
      server: 'left',
      protocolVersion: '2025-11-25',
    });
    opened.push(mcp);
    await mcp.callTool('add', { a: 5, b: 5 }).assertText('10');
    await expect(
      Promise.resolve(mcp.callTool('add', { a: 5, b: 5 }).assertStatus(200)),
    ).rejects.toThrow('this client is connected in memory, without HTTP (it has no status)');
  });
});
