import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import {
  inputRequired,
  McpContext,
  McpModule,
  McpServerHost,
  McpTool,
  type McpCallContext,
} from 'nestjs-mcp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../support/fixture-app.js';
import { modernRequest } from '../../support/mcp-post.js';

class EchoDto {
  @IsString()
  word!: string;
}

@Injectable()
class LeanTools {
  @McpTool({ description: 'Echoes a word.' })
  echo({ word }: EchoDto) {
    return `echo: ${word}`;
  }

  @McpTool({ description: 'Logs, then asks the user a question.' })
  async ask(@McpContext() call: McpCallContext) {
    await call.log('info', 'asking');
    return inputRequired({
      inputRequests: {
        ok: inputRequired.elicit({
          message: 'Sure?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        }),
      },
    });
  }

  @McpTool({ description: 'Another tool, published at run time.' })
  extra() {
    return 'extra';
  }
}

function appWith(leanPath: boolean) {
  @Module({
    imports: [McpModule.forRoot({ name: 'lean', version: '1.0.0', http: { leanPath } })],
    providers: [LeanTools],
  })
  class LeanAppModule {}
  return LeanAppModule;
}

/** A stateless 2025-11-25 request: the protocol version header, no session. */
function legacyPost(running: RunningApp, body: Record<string, unknown>) {
  return request(running.app.getHttpServer())
    .post('/mcp')
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .set('MCP-Protocol-Version', '2025-11-25')
    .send({ jsonrpc: '2.0', ...body });
}

function messageOf(res: request.Response): unknown {
  if (!res.headers['content-type']?.startsWith('text/event-stream')) return res.body;
  const data = res.text.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data.at(-1)!.slice(6));
}

/** Every message of an SSE answer. */
function framesOf(res: request.Response): unknown[] {
  return res.text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

describe('the lean HTTP path (http.leanPath)', () => {
  let lean: RunningApp;
  let sdk: RunningApp;

  beforeAll(async () => {
    lean = await startApp(appWith(true));
    sdk = await startApp(appWith(false));
    // `extra` is withdrawn before the tests: it is added back by one of them.
    for (const running of [lean, sdk]) running.app.get(McpServerHost).removeTool('extra');
  });

  afterAll(async () => {
    await lean?.close();
    await sdk?.close();
  });

  it('answers a stateless 2025 tools/call as one JSON body, with the SDK path’s message', async () => {
    const call = {
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { word: 'hi' } },
    };
    const fromLean = await legacyPost(lean, call);
    const fromSdk = await legacyPost(sdk, call);
    expect(fromLean.status).toBe(200);
    expect(fromLean.headers['content-type']).toBe('application/json');
    expect(fromSdk.headers['content-type']).toBe('text/event-stream');
    expect(fromLean.body).toEqual(messageOf(fromSdk));
    expect(fromLean.body.result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });

  it('ends the stream a 2025 log opened with the SDK path’s answer to a question it cannot ask', async () => {
    // A stateless 2025 client cannot be asked (no session): the log opens the stream, and the
    // SDK's refusal of the question must end it, as on the SDK path (it used to stay open).
    const call = { id: 8, method: 'tools/call', params: { name: 'ask', arguments: {} } };
    const [fromLean, fromSdk] = await Promise.all([legacyPost(lean, call), legacyPost(sdk, call)]);
    for (const res of [fromLean, fromSdk]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
    }
    expect(framesOf(fromLean)).toEqual(framesOf(fromSdk));
    expect(framesOf(fromLean)).toHaveLength(2);
    expect(messageOf(fromLean)).toMatchObject({ id: 8 });
  });

  it('answers 2026-07-28 calls and lists with the SDK path’s status, headers and body', async () => {
    const requests: [string, Record<string, unknown>][] = [
      ['tools/call', { name: 'echo', arguments: { word: 'modern' } }],
      ['tools/call', { name: 'echo', arguments: { word: 42 } }],
      ['tools/call', { name: 'missing', arguments: {} }],
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['server/discover', {}],
    ];
    for (const [method, params] of requests) {
      const fromLean = await modernRequest(lean.app, '/mcp', method, params);
      const fromSdk = await modernRequest(sdk.app, '/mcp', method, params);
      expect({ method, status: fromLean.status }).toEqual({ method, status: fromSdk.status });
      expect(fromLean.headers['content-type']).toBe(fromSdk.headers['content-type']);
      expect(fromLean.body).toEqual(fromSdk.body);
    }
  });

  it('serves the same list again after a runtime change of the catalog', async () => {
    const names = async () => {
      const res = await modernRequest(lean.app, '/mcp', 'tools/list', {});
      return (res.body.result.tools as { name: string }[]).map((tool) => tool.name);
    };
    expect(await names()).toEqual(['ask', 'echo']);
    expect(await names()).toEqual(['ask', 'echo']);
    const host = lean.app.get(McpServerHost);
    host.addTool(lean.app.get(LeanTools), 'extra', { name: 'extra' });
    expect(await names()).toEqual(['ask', 'echo', 'extra']);
    host.removeTool('extra');
    expect(await names()).toEqual(['ask', 'echo']);
  });

  it('answers every id with its own answer when lists come from the cache', async () => {
    const ids = [1, 'two', 3];
    const answers = await Promise.all(
      ids.map((id) => legacyPost(lean, { id, method: 'tools/list', params: {} })),
    );
    expect(answers.map((res) => res.body.id)).toEqual(ids);
    expect(new Set(answers.map((res) => JSON.stringify(res.body.result))).size).toBe(1);
  });
});
