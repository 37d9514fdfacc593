import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';

const VERSION = '2026-07-28';

function callTool(app: INestApplication, name: string, args: object, token: string) {
  return request(app.getHttpServer())
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .set('MCP-Protocol-Version', VERSION)
    .set('Mcp-Method', 'tools/call')
    .set('Mcp-Name', name)
    .send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
}

describe('catalog tools', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = await moduleRef.createNestApplication().init();
  });

  afterAll(() => app.close());

  it('searches the catalog', async () => {
    const res = await callTool(app, 'search_products', { category: 'kitchen' }, 'reader-token');
    expect(res.status).toBe(200);
    expect(res.body.result.structuredContent.total).toBe(7);
  });

  it('tells a reader that create_product needs the catalog.write scope', async () => {
    const res = await callTool(app, 'create_product', { sku: 'KIT-9001' }, 'reader-token');
    expect(res.body.result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Forbidden (403): Missing scope(s): catalog.write; the caller has catalog.read.',
        },
      ],
    });
  });

  it('names each invalid argument', async () => {
    const res = await callTool(app, 'search_products', { limit: 100 }, 'reader-token');
    expect(res.body.result.structuredContent.issues).toEqual([
      { path: '/limit', constraint: 'max', message: 'limit must not be greater than 50' },
    ]);
  });
});
