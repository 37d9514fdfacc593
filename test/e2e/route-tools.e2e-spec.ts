import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { McpTestClient } from 'nestjs-mcp/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteToolsModule } from '../fixtures/route-tools.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';

const logs = captureLogs();

const UUID = '3f2c8a4e-9b1d-4c7e-8f60-2a5b9d0e1c34';
/** A version 1 UUID: a uuid for the schema, refused by `ParseUUIDPipe({ version: '4' })`. */
const UUID_V1 = 'a8098c1a-f86e-11da-bd1a-00112444be1e';

describe.each(ADAPTERS)('controller routes as tools, on %s', (adapter) => {
  let app: INestApplication;

  beforeAll(async () => {
    ({ app } = await startApp(RouteToolsModule, { adapter, logger: logs }));
  });

  afterAll(async () => {
    await app?.close();
  });

  const http = () => request(app.getHttpServer());

  describe.each(['2025-11-25', '2026-07-28'] as const)('over MCP %s', (protocolVersion) => {
    let mcp: McpTestClient;

    beforeAll(async () => {
      mcp = await McpTestClient.connect(app, { protocolVersion });
    });

    afterAll(async () => {
      await mcp?.close();
    });

    const listed = async (name: string) => {
      const { result } = await mcp.as({ 'x-role': 'admin' }).listTools().assertOk();
      return result?.tools.find((tool) => tool.name === name);
    };

    it('lists @Param() and @Body() as one schema, with annotations from the HTTP method', async () => {
      expect(await listed('update')).toMatchObject({
        name: 'update',
        description: 'Update a product.',
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string', maxLength: 40 },
            stock: { type: 'integer', minimum: 0 },
          },
          required: ['id'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false },
      });
      expect((await listed('find_one'))?.annotations).toEqual({ readOnlyHint: true });
      expect((await listed('rename'))?.annotations).toEqual({ idempotentHint: true });
      expect((await listed('remove'))?.annotations).toEqual({ destructiveHint: true });
    });

    it('lists named @Query() parameters with their pipes', async () => {
      expect((await listed('search'))?.inputSchema).toEqual({
        type: 'object',
        properties: {
          q: { type: 'string' },
          page: { type: 'integer', default: 1 },
          status: { type: 'string', enum: ['draft', 'live'] },
        },
        required: ['q'],
        additionalProperties: false,
      });
    });

    it('calls a PATCH route with the path parameter and the body DTO', async () => {
      await mcp
        .callTool('update', { id: UUID, name: 'Kettle', stock: 3 })
        .assertOk()
        .assertStructured({ id: UUID, changes: { name: 'Kettle', stock: 3 }, isDto: true });
    });

    it('gives the method the number ParseIntPipe makes', async () => {
      await mcp
        .callTool('find_one', { id: 42 })
        .assertOk()
        .assertStructured({ id: 42, type: 'number' });
    });

    it('runs DefaultValuePipe and ParseEnumPipe on named query parameters', async () => {
      await mcp
        .callTool('search', { q: 'kettle' })
        .assertOk()
        .assertStructured({ q: 'kettle', page: 1, pageType: 'number', status: null });
      await mcp
        .callTool('search', { q: 'kettle', page: 3, status: 'live' })
        .assertOk()
        .assertStructured({ q: 'kettle', page: 3, status: 'live' });
    });

    it("runs the route's own pipes on the values", async () => {
      await mcp
        .callTool('rename', { sku: 'kit-9', name: 'Kettle' })
        .assertOk()
        .assertStructured({ sku: 'KIT-9', name: 'Kettle' });
    });

    it('refuses a bad uuid with a message that says what to fix', async () => {
      const answer = await mcp.callTool('update', { id: 'not-a-uuid' }).assertError();
      expect(answer.result?.structuredContent).toMatchObject({
        error: 'invalid_arguments',
        issues: [{ path: '/id', constraint: 'format' }],
      });
      // The schema asks for a uuid; ParseUUIDPipe({ version: '4' }) also wants a version 4 one.
      await mcp
        .callTool('by_ref', { ref: UUID_V1 })
        .assertError()
        .assertText('Bad Request (400): Validation failed (uuid v 4 is expected)');
      await mcp.callTool('by_ref', { ref: UUID }).assertOk().assertStructured({ ref: UUID });
    });

    it('refuses invalid body values and unknown arguments, each by its pointer', async () => {
      const answer = await mcp
        .callTool('update', { id: UUID, stock: -1, colour: 'red' })
        .assertError();
      expect(answer.result?.structuredContent.issues).toEqual([
        { path: '/stock', constraint: 'min', message: 'stock must not be less than 0' },
        {
          path: '/colour',
          constraint: 'additionalProperties',
          message: expect.stringContaining('colour'),
        },
      ]);
    });

    it('runs the route guard: hidden from and refused to a caller it refuses', async () => {
      await mcp.listTools().assertToolNotListed('remove');
      await mcp
        .callTool('remove', { id: 5 })
        .assertError()
        .assertText('Forbidden (403): Forbidden resource');
      await mcp
        .as({ 'x-role': 'admin' })
        .callTool('remove', { id: 5 })
        .assertOk()
        .assertStructured({ deleted: 5 });
    });
  });

  describe('the same routes over HTTP', () => {
    it('answer as before', async () => {
      const found = await http().get('/products/42');
      expect([found.status, found.body]).toEqual([200, { id: 42, type: 'number' }]);
      const updated = await http().patch(`/products/${UUID}`).send({ name: 'Kettle' });
      expect([updated.status, updated.body]).toEqual([
        200,
        { id: UUID, changes: { name: 'Kettle' }, isDto: false },
      ]);
      const searched = await http().get('/products').query({ q: 'kettle' });
      expect(searched.body).toEqual({ q: 'kettle', page: 1, pageType: 'number', status: null });
      const renamed = await http().put('/products/kit-9').send({ name: 'Kettle' });
      expect(renamed.body).toEqual({ sku: 'KIT-9', name: 'Kettle' });
    });

    it('refuse what they refused', async () => {
      const badUuid = await http().patch('/products/not-a-uuid').send({});
      expect(badUuid.status).toBe(400);
      const badInt = await http().get('/products/forty-two');
      expect(badInt.status).toBe(400);
      expect((await http().delete('/products/5')).status).toBe(403);
      const deleted = await http().delete('/products/5').set('x-role', 'admin');
      expect([deleted.status, deleted.body]).toEqual([200, { deleted: 5 }]);
    });
  });
});

describe('controller routes as tools, with a global ValidationPipe', () => {
  let app: INestApplication;
  let mcp: McpTestClient;

  beforeAll(async () => {
    ({ app } = await startApp(RouteToolsModule, {
      logger: logs,
      configure: (created) =>
        created.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true })),
    }));
    mcp = await McpTestClient.connect(app);
  });

  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  it('gives the method the same values over MCP and over HTTP', async () => {
    const overMcp = await mcp
      .callTool('update', { id: UUID, name: 'Kettle' })
      .assertOk()
      .assertStructured({ id: UUID, changes: { name: 'Kettle' }, isDto: true });
    const overHttp = await request(app.getHttpServer())
      .patch(`/products/${UUID}`)
      .send({ name: 'Kettle' });
    expect(overHttp.body).toEqual(overMcp.result?.structuredContent);
    await mcp
      .callTool('search', { q: 'kettle' })
      .assertOk()
      .assertStructured({ q: 'kettle', page: 1, pageType: 'number', status: null });
    await mcp
      .callTool('find_one', { id: 7 })
      .assertOk()
      .assertStructured({ id: 7, type: 'number' });
  });
});
