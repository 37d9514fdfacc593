// A request whose params do not match its method's schema gets -32602 with a plain message,
// on both wires and on the lean path as on the SDK's entry (issue 31): not -32603 with the
// SDK's zod dump.
import { Injectable, Module, type Type } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpPrompt, McpTool } from 'nestjs-mcp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { eraRequest, messageOf, MODERN_VERSION } from '../support/mcp-post.js';

class TopicArgs {
  @IsString()
  topic!: string;
}

@Injectable()
class Tools {
  @McpTool({ description: 'Answers.' })
  answer() {
    return '42';
  }

  @McpPrompt({ description: 'Drafts a note.' })
  draft({ topic }: TopicArgs) {
    return `Write about ${topic}.`;
  }
}

function appWith(leanPath: boolean): Type {
  @Module({
    imports: [McpModule.forRoot({ name: 'params', version: '1.0.0', http: { leanPath } })],
    providers: [Tools],
  })
  class ParamsModule {}
  return ParamsModule;
}

const ERAS = [MODERN_VERSION, '2025-11-25'];

describe.each([true, false])('invalid params (http.leanPath: %s)', (leanPath) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(appWith(leanPath));
  });
  afterAll(() => running?.close());

  it.each(ERAS)('tools/list with a numeric cursor is -32602 on %s', async (era) => {
    const { status, message } = await eraRequest(running.app, era, 'tools/list', { cursor: 1 });
    expect(status).toBe(200);
    expect(message.error).toEqual({
      code: -32602,
      message: 'Invalid params for tools/list: params.cursor: expected string, received number',
    });
  });

  it.each(ERAS)('tools/call with a numeric name is -32602, without a dump, on %s', async (era) => {
    const { message } = await eraRequest(
      running.app,
      era,
      'tools/call',
      { name: 7 },
      { 'Mcp-Name': '7' },
    );
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toMatch(
      /^Invalid params for tools\/call: params\.name: expected string/,
    );
    expect(message.error.message).not.toContain('[');
  });

  it('initialize {} is -32602 naming what is missing', async () => {
    const res = await request(running.app.getHttpServer())
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Content-Type', 'application/json')
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    expect(res.status).toBe(200);
    expect(messageOf(res).error).toEqual({
      code: -32602,
      message:
        'Invalid params for initialize: params.protocolVersion: expected string, received undefined; ' +
        'params.capabilities: expected object, received undefined; ' +
        'params.clientInfo: expected object, received undefined',
    });
  });
});
