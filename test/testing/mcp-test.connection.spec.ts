// One connection of the testing kit, opened directly (McpTestClient opens them through its
// session): over the app's HTTP endpoint and in memory, in every protocol revision the kit
// speaks. The calculator app's endpoint guard wants `Bearer reader` or `Bearer admin`.
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionRefused,
  MCP_TEST_PROTOCOL_VERSIONS,
  McpTestConnection,
  refusalError,
  type ConnectionTarget,
} from '../../lib/testing/mcp-test.connection.js';
import { selectServer } from '../../lib/transports/server.selector.js';
import { calculatorModule } from './calculator.fixture.js';

const READER = { authorization: 'Bearer reader' };
const NOBODY = { authorization: 'Bearer nobody' };
const GUARD_MESSAGE = 'A bearer token (reader or admin) is required';

let http: INestApplication;
let memory: INestApplicationContext;
const targets: Record<'http' | 'memory', () => ConnectionTarget> = {
  http: () => {
    const { port } = http.getHttpServer().address() as AddressInfo;
    return { kind: 'http', url: new URL(`http://127.0.0.1:${port}/mcp`) };
  },
  memory: () => ({ kind: 'memory', app: memory, runtime: selectServer(memory) }),
};

beforeAll(async () => {
  http = await NestFactory.create(calculatorModule(), { logger: ['error'] });
  await http.listen(0, '127.0.0.1');
  // An application context has no HTTP server: the kit connects in memory.
  memory = await NestFactory.createApplicationContext(calculatorModule(), { logger: ['error'] });
});

afterAll(async () => {
  await http?.close();
  await memory?.close();
});

const opened: McpTestConnection[] = [];

afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
});

describe.each(['http', 'memory'] as const)('McpTestConnection.open (%s)', (kind) => {
  describe.each(MCP_TEST_PROTOCOL_VERSIONS)('protocol revision %s', (protocolVersion) => {
    const modern = protocolVersion === '2026-07-28';

    /** A connection of the reader, closed after the test. */
    async function open(): Promise<McpTestConnection> {
      const connection = await McpTestConnection.open(targets[kind](), {
        protocolVersion,
        headers: READER,
      });
      if (connection instanceof ConnectionRefused) throw new Error(connection.error.message);
      opened.push(connection);
      return connection;
    }

    it('calls a tool; the answer carries the HTTP response only over HTTP', async () => {
      const connection = await open();
      const answer = await connection.exchange(
        'tools/call',
        { name: 'add', arguments: { a: 1, b: 2 } },
        {},
      );
      expect(answer).toMatchObject({
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2 } },
        result: { content: [{ type: 'text', text: '3' }] },
      });
      expect(answer.error).toBeUndefined();
      if (kind === 'memory') expect(answer.response).toBeUndefined();
      else expect(answer.response).toMatchObject({ status: 200, headers: expect.any(Object) });
    });

    it('gives a JSON-RPC error as the answer, not as a thrown error', async () => {
      const connection = await open();
      const answer = await connection.exchange(
        'tools/call',
        { name: 'no_such_tool', arguments: {} },
        {},
      );
      expect(answer.result).toBeUndefined();
      expect(answer.error).toMatchObject({ code: -32602 });
      expect(answer.error?.message).toContain('no_such_tool');
    });

    it('hands progress and log messages to the hooks of the request', async () => {
      const connection = await open();
      const progress: number[] = [];
      const logs: unknown[] = [];
      const answer = await connection.exchange(
        'tools/call',
        { name: 'count_to_three', arguments: {} },
        {
          onProgress: (update) => progress.push(update.progress),
          onLog: (log) => logs.push(log.data),
        },
      );
      expect(answer.result?.content).toEqual([{ type: 'text', text: 'three' }]);
      expect(progress).toEqual([1, 2, 3]);
      expect(logs).toEqual(['counted 1', 'counted 2', 'counted 3']);
    });

    it('hands a question to the answerer, and says to add .answer(...) without one', async () => {
      const connection = await open();
      const accepted = await connection.exchange(
        'tools/call',
        { name: 'clear_history', arguments: {} },
        { answer: () => ({ action: 'accept', content: { confirm: true } }) },
      );
      expect(accepted.result?.content).toEqual([{ type: 'text', text: 'history cleared' }]);

      const unanswered = connection.exchange(
        'tools/call',
        { name: 'clear_history', arguments: {} },
        {},
      );
      const hint =
        'The server asked for input (elicitation/create: "Clear the history?") and this ' +
        "request has no answer: add .answer((question) => ({ action: 'accept', content: { ... } })) to it.";
      if (modern) {
        // The SDK client fulfils the input_required result itself: the request rejects.
        await expect(unanswered).rejects.toThrow(hint);
      } else {
        // A 2025 server asked the client, which answered with the error: the tool failed.
        const { result } = await unanswered;
        expect(result?.isError).toBe(true);
        expect(result?.content[0].text).toContain(hint);
      }
    });

    it('resolves a caller the guard refuses to ConnectionRefused, with its message', async () => {
      const refused = await McpTestConnection.open(targets[kind](), {
        protocolVersion,
        headers: NOBODY,
      });
      expect(refused).toBeInstanceOf(ConnectionRefused);
      const { error, response } = refused as ConnectionRefused;
      if (kind === 'memory') {
        // The guard ran on the caller's request, as stdio and the CLI run it.
        expect(error).toEqual({
          code: -32000,
          message: `The MCP caller was refused by TokenGuard: ${GUARD_MESSAGE} (401)`,
        });
        expect(response).toBeUndefined();
      } else {
        // The endpoint answered the opening request (initialize, or server/discover) 401.
        expect(error).toEqual({
          code: -32000,
          message: `HTTP 401: ${GUARD_MESSAGE}`,
          data: {
            status: 401,
            body: { statusCode: 401, error: 'Unauthorized', message: GUARD_MESSAGE },
          },
        });
        expect(response?.status).toBe(401);
      }
    });
  });
});

/** An HTTP refusal as the kit's recording fetch keeps it. */
const recorded = (status: number, body?: string) => ({
  status,
  headers: {},
  ...(body !== undefined && { body }),
});

describe('refusalError', () => {
  it('takes the JSON-RPC error of a JSON-RPC body as it is', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Payload Too Large', data: { limit: 1024 } },
    });
    expect(refusalError(recorded(413, body))).toEqual({
      code: -32000,
      message: 'Payload Too Large',
      data: { limit: 1024 },
    });
    const withoutData = JSON.stringify({ error: { code: -32600, message: 'Invalid Request' } });
    expect(refusalError(recorded(400, withoutData))).toEqual({
      code: -32600,
      message: 'Invalid Request',
    });
  });

  it('reads the message of a Nest exception body, a list of messages joined', () => {
    const nest = { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' };
    expect(refusalError(recorded(403, JSON.stringify(nest)))).toEqual({
      code: -32000,
      message: 'HTTP 403: Forbidden resource',
      data: { status: 403, body: nest },
    });
    const validation = { statusCode: 400, message: ['a is required', 'b must be a number'] };
    expect(refusalError(recorded(400, JSON.stringify(validation))).message).toBe(
      'HTTP 400: a is required; b must be a number',
    );
  });

  it('keeps a plain text body as the message, and says when there was none', () => {
    expect(refusalError(recorded(502, 'Bad gateway from the proxy'))).toEqual({
      code: -32000,
      message: 'HTTP 502: Bad gateway from the proxy',
      data: { status: 502, body: 'Bad gateway from the proxy' },
    });
    expect(refusalError(recorded(401))).toEqual({
      code: -32000,
      message: 'HTTP 401: no body',
      data: { status: 401, body: '' },
    });
  });

  it('does not take an error field that is not a JSON-RPC error for one', () => {
    const body = JSON.stringify({ error: 'Unauthorized', message: 'Sign in first' });
    expect(refusalError(recorded(401, body)).message).toBe('HTTP 401: Sign in first');
  });
});
