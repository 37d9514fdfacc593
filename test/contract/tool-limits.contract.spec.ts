import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/contract/contract.diff.js';
import type { ContractLister } from '../../lib/contract/mcp-contract.interface.js';
import {
  assembleContract,
  describeServerContract,
} from '../../lib/contract/server-contract.builder.js';
import { toolLimitsAppModule } from '../fixtures/tool-limits.fixture.js';

describe('the limits of a tool in the contract', () => {
  it('records timeoutMs and concurrency among the listed fields, only for a tool that has them', async () => {
    const lister: ContractLister = {
      list: async (method) =>
        method === 'tools/list'
          ? [
              { name: 'slow', description: 'Slow.', inputSchema: { type: 'object' } },
              { name: 'quick', description: 'Quick.', inputSchema: { type: 'object' } },
            ]
          : [],
      toolLimits: (name) =>
        name === 'slow'
          ? { timeoutMs: 5_000, concurrency: { max: 2, queue: 2 } }
          : name === 'quick'
            ? {}
            : undefined,
    };
    const { tools } = await describeServerContract(lister, { server: 'catalog' });
    expect(tools).toEqual([
      { name: 'quick', description: 'Quick.', inputSchema: { type: 'object' } },
      {
        name: 'slow',
        concurrency: { max: 2, queue: 2 },
        description: 'Slow.',
        inputSchema: { type: 'object' },
        timeoutMs: 5_000,
      },
    ]);
    // The name first, then the fields in code-point order, as every entry of the file.
    expect(Object.keys(tools[1]!)).toEqual([
      'name',
      'concurrency',
      'description',
      'inputSchema',
      'timeoutMs',
    ]);
  });
});

describe('mcp.contract() of an app with tool limits', () => {
  let app: INestApplication;
  let mcp: McpTestClient;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [toolLimitsAppModule({ tools: { timeoutMs: 150, concurrency: { max: 8 } } })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: ['error'] });
    await app.init();
    mcp = await McpTestClient.connect(app);
  });

  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  it("shows each tool's effective limits: its own, else the server's, false turning one off", async () => {
    const { tools } = await mcp.contract();
    const limits = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        { timeoutMs: tool.timeoutMs, concurrency: tool.concurrency },
      ]),
    );
    expect(limits).toMatchObject({
      stuck: { timeoutMs: 100, concurrency: { max: 8, queue: 8 } },
      inherits: { timeoutMs: 150, concurrency: { max: 8, queue: 8 } },
      unbounded: { timeoutMs: undefined, concurrency: { max: 8, queue: 8 } },
      pooled: { timeoutMs: undefined, concurrency: { max: 2, queue: 1 } },
      personal: { timeoutMs: undefined, concurrency: { perCaller: 1, queue: 0 } },
      single: { timeoutMs: undefined, concurrency: { max: 1, queue: 1 } },
      // A task tool keeps its own timeout; it would not take the server's.
      stuck_task: { timeoutMs: 100, concurrency: { max: 8, queue: 8 } },
    });
  });

  it('shows a changed limit as a change of the contract', async () => {
    const before = assembleContract([await mcp.contract()]);
    const changed = structuredClone(before);
    const pooled = changed.servers[0]!.tools.find((tool) => tool.name === 'pooled')!;
    (pooled.concurrency as { max: number }).max = 3;
    expect(diffContracts(before, changed)).toEqual([
      {
        kind: 'changed',
        pointer: '/servers/limits@anonymous/tools/pooled/concurrency/max',
        before: 2,
        after: 3,
      },
    ]);
  });
});
