import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/contract-file.parser.js';
import { AppModule } from '../../sample/app.module.js';

/**
 * `await mcp.contract()` of the testing kit (over the app's HTTP endpoint, on either era)
 * gives the entries the CLI wrote into sample/mcp-contract.json (in-process, without HTTP):
 * one format, whichever way the lists were asked for.
 */
const CHECKED_IN = parseContract(
  readFileSync(new URL('../../sample/mcp-contract.json', import.meta.url), 'utf8'),
  'sample/mcp-contract.json',
);
const entryOf = (caller: string) => CHECKED_IN.servers.find((server) => server.caller === caller);

describe.each(['2026-07-28', '2025-11-25'] as const)(
  'mcp.contract() on the sample, protocol %s',
  (protocolVersion) => {
    let app: INestApplication;
    let mcp: McpTestClient;

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
      app = moduleRef.createNestApplication({ logger: ['error'] });
      await app.init();
      mcp = await McpTestClient.connect(app, {
        protocolVersion,
        headers: { authorization: 'Bearer reader-token' },
      });
    });

    afterAll(async () => {
      await mcp?.close();
      await app?.close();
    });

    it.each(['reader', 'admin'])('equals the checked-in entry of the %s', async (caller) => {
      const client = caller === 'reader' ? mcp : mcp.as({ authorization: 'Bearer admin-token' });
      expect(entryOf(caller)).toBeDefined();
      expect(await client.contract({ caller })).toEqual(entryOf(caller));
    });
  },
);
