import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { McpTestClient, type McpTestProtocolVersion } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculatorModule } from './calculator.fixture.js';

const ERAS: McpTestProtocolVersion[] = ['2026-07-28', '2025-11-25'];
const READER = { authorization: 'Bearer reader' };
const ADMIN = { authorization: 'Bearer admin' };

async function createApp(adapter: 'express' | 'fastify'): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [calculatorModule()] }).compile();
  const platform = adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
  return moduleRef.createNestApplication(platform, { logger: ['error'] }).init();
}

describe.each(['express', 'fastify'] as const)('McpTestClient over HTTP (%s)', (adapter) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createApp(adapter);
  });
  afterAll(() => app.close());

  describe.each(ERAS)('protocol revision %s', (protocolVersion) => {
    let mcp: McpTestClient;

    beforeAll(async () => {
      mcp = await McpTestClient.connect(app, { protocolVersion, headers: READER });
    });
    afterAll(() => mcp.close());

    it('calls a tool and asserts its text', async () => {
      const answer = await mcp
        .callTool('add', { a: 1, b: 2 })
        .assertOk()
        .assertText('3')
        .assertStatus(200);
      expect(answer.result?.content).toEqual([{ type: 'text', text: '3' }]);
      expect(answer.response?.status).toBe(200);
    });

    it('matches structured content partially or with a predicate', async () => {
      await mcp
        .callTool('sum', { a: 2, b: 5 })
        .assertOk()
        .assertStructured({ sum: 7 })
        .assertStructured({ terms: [2, 5] })
        .assertStructured((structured) => structured.sum === 7)
        .assertTextContains('"sum":7');
    });

    it('reads an invalid-arguments result as an error with its text', async () => {
      await mcp
        .callTool('add', { a: 5000, b: 1 })
        .assertError()
        .assertError('a must not be greater than 1000');
    });

    it('gives a JSON-RPC error as the answer, not as a thrown error', async () => {
      const answer = await mcp
        .callTool('no_such_tool')
        .assertError(-32602)
        .assertSee('no_such_tool');
      expect(answer.error).toMatchObject({ code: -32602 });
      expect(answer.result).toBeUndefined();
      const raw = await mcp.send('tools/call', { arguments: {} }).assertError(-32602);
      expect(raw.error?.message).toEqual(expect.any(String));
    });

    it('lists every page (pageSize 2) and sees tools by caller', async () => {
      const tools = await mcp.listTools().assertToolListed('add').assertToolNotListed('reset');
      expect(tools.result?.tools.map((tool) => tool.name)).toEqual([
        'add',
        'clear_history',
        'count_to_three',
        'name_number',
        'sum',
        'who_am_i',
      ]);
      await mcp.as(ADMIN).listTools().assertToolListed('reset');
      await mcp.as(ADMIN).callTool('reset').assertOk().assertText('memory cleared');
      await mcp.callTool('reset').assertError('Forbidden');
    });

    it('gets prompts, resources, templates and completions', async () => {
      await mcp.listPrompts().assertSee('explain');
      await mcp
        .getPrompt('explain', { topic: 'fractions' })
        .assertOk()
        .assertText('Explain fractions to a child.');
      await mcp.listResources().assertSee('calc://constants/pi');
      await mcp.readResource('calc://constants/pi').assertText('3.14159');
      await mcp.listResourceTemplates().assertSee('calc://tables/{n}');
      await mcp.readResource('calc://tables/3').assertTextContains('3 x 3 = 9');
      const completion = await mcp
        .complete({ type: 'ref/prompt', name: 'explain' }, { name: 'topic', value: 'f' })
        .assertOk();
      expect(completion.result?.completion.values).toEqual(['fractions', 'factorials']);
    });

    it('answers a refused caller with the HTTP status and the guard message', async () => {
      const answer = await mcp
        .as({ authorization: 'Bearer nobody' })
        .listTools()
        .assertStatus(401)
        .assertError('A bearer token (reader or admin) is required');
      expect(answer.response?.headers['content-type']).toContain('application/json');
    });

    it('reports progress and logs of the call', async () => {
      const progress: number[] = [];
      const logs: unknown[] = [];
      await mcp
        .callTool('count_to_three')
        .onProgress((update) => progress.push(update.progress))
        .onLog((log) => logs.push(log.data))
        .assertText('three');
      expect(progress).toEqual([1, 2, 3]);
      expect(logs).toEqual(['counted 1', 'counted 2', 'counted 3']);
    });

    it('answers elicitation and sampling requests', async () => {
      const asked: string[] = [];
      await mcp
        .callTool('clear_history')
        .answer((question) => {
          asked.push(question.method);
          return { action: 'accept', content: { confirm: true } };
        })
        .assertText('history cleared');
      await mcp
        .callTool('name_number')
        .answer(() => ({
          role: 'assistant',
          model: 'test',
          content: { type: 'text', text: 'three' },
        }))
        .assertText('the model says: three');
      expect(asked).toEqual(['elicitation/create']);
    });
  });
});

describe('McpTestClient in memory (an application context without HTTP)', () => {
  let context: INestApplicationContext;

  beforeAll(async () => {
    context = await NestFactory.createApplicationContext(calculatorModule(), { logger: ['error'] });
  });
  afterAll(() => context.close());

  describe.each(ERAS)('protocol revision %s', (protocolVersion) => {
    let mcp: McpTestClient;

    beforeAll(async () => {
      mcp = await McpTestClient.connect(context, { protocolVersion, headers: READER });
    });
    afterAll(() => mcp.close());

    it('calls tools as two callers', async () => {
      await mcp.callTool('add', { a: 1, b: 2 }).assertOk().assertText('3');
      await mcp.listTools().assertToolNotListed('reset');
      await mcp.as(ADMIN).listTools().assertToolListed('reset');
      const answer = await mcp.callTool('add', { a: 1, b: 2 });
      expect(answer.response).toBeUndefined();
    });

    it('answers a refused caller with the guard message', async () => {
      await mcp.as({ authorization: 'Bearer nobody' }).listTools().assertError('A bearer token');
    });

    it('answers input requests and reports progress', async () => {
      const progress: number[] = [];
      await mcp
        .callTool('count_to_three')
        .onProgress((update) => progress.push(update.progress))
        .assertText('three');
      expect(progress).toEqual([1, 2, 3]);
      await mcp
        .callTool('clear_history')
        .answer(() => ({ action: 'accept', content: { confirm: false } }))
        .assertText('history kept');
    });
  });
});
