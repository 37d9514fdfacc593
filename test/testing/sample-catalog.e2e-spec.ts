import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';

describe('catalog tools', () => {
  let app: INestApplication;
  let mcp: McpTestClient;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = await moduleRef.createNestApplication().init();
    mcp = await McpTestClient.connect(app, {
      headers: { authorization: 'Bearer reader-token' },
    });
  });

  afterAll(async () => {
    await mcp.close();
    await app.close();
  });

  it('searches the catalog', async () => {
    await mcp
      .callTool('search_products', { category: 'kitchen' })
      .assertOk()
      .assertStructured({ total: 7 });
  });

  it('names each invalid argument', async () => {
    const answer = await mcp.callTool('search_products', { limit: 100 }).assertError();
    expect(answer.result?.structuredContent.issues).toEqual([
      { path: '/limit', constraint: 'max', message: 'limit must not be greater than 50' },
    ]);
  });

  it('shows create_product to an admin only', async () => {
    await mcp.listTools().assertToolNotListed('create_product');
    await mcp
      .as({ authorization: 'Bearer admin-token' })
      .listTools()
      .assertToolListed('create_product');
  });
});
