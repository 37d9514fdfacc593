import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../sample/app.module.js';

/** The sample's checked-in contract, which `nestjs-mcp contract --check` keeps true in CI. */
const FILE = JSON.parse(
  readFileSync(new URL('../../sample/mcp-contract.json', import.meta.url), 'utf8'),
) as { servers: Array<{ caller: string }> };
const entryOf = (caller: string) => FILE.servers.find((entry) => entry.caller === caller);

const CALLERS = [
  { caller: 'reader', headers: { authorization: 'Bearer reader-token' } },
  { caller: 'admin', headers: { authorization: 'Bearer admin-token' } },
];

describe('mcp.contract() on the sample', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = await moduleRef.createNestApplication({ logger: ['error'] }).init();
  });

  afterAll(() => app.close());

  describe.each(['2026-07-28', '2025-11-25'] as const)('on %s', (protocolVersion) => {
    it.each(CALLERS)('is the entry the CLI wrote for the $caller', async ({ caller, headers }) => {
      const mcp = await McpTestClient.connect(app, { protocolVersion, headers });
      try {
        expect(entryOf(caller), `sample/mcp-contract.json has a ${caller}`).toBeDefined();
        expect(await mcp.contract({ caller })).toEqual(entryOf(caller));
      } finally {
        await mcp.close();
      }
    });
  });

  it('labels a caller by its headers, as the CLI does for --as without a label, and refuses a refused one', async () => {
    const mcp = await McpTestClient.connect(app, { headers: CALLERS[0]!.headers });
    try {
      const contract = await mcp.contract();
      expect(contract.caller).toMatch(/^authorization: Bearer <sha256:[0-9a-f]{8}>$/);
      expect(contract.locale).toBe('default');
      await expect(mcp.as({ authorization: 'Bearer nobody' }).contract()).rejects.toThrow(
        'contract(): tools/list answered -32000 HTTP 401: Send "Authorization: Bearer <token>"',
      );
    } finally {
      await mcp.close();
    }
  });

  it('is the same in memory, through an application context', async () => {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
    const mcp = await McpTestClient.connect(context, { headers: CALLERS[1]!.headers });
    try {
      expect(await mcp.contract({ caller: 'admin' })).toEqual(entryOf('admin'));
    } finally {
      await mcp.close();
      await context.close();
    }
  });
});
