// No credential at rest (issue 31): an app with `auth`, `scaleOut` on a real Redis and
// `tasks.queue` runs a queued task and a 2025 session for a caller with a real bearer token
// (a JWT of the test issuer); then every key of the Redis instance is read, whatever its
// type (the task's hash and indexes, the task events, the BullMQ job kept an hour after it
// ended, the session's event streams), and so is every line the app logged: the token is
// nowhere, while the worker still saw the caller's identity and scopes.
import { Injectable, Module, type Type } from '@nestjs/common';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { McpContext, McpModule, McpScopes, McpTool, type McpCallContext } from 'nestjs-mcp';
import { RedisScaleOut } from 'nestjs-mcp/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer } from '../oauth/token-issuer.js';
import { CapturedLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { useRedisServer } from '../support/redis-server.js';
import { callWithToken, until } from '../support/jobs-client.js';

const redis = useRedisServer();

@Injectable()
class Notes {
  @McpTool({ description: 'Imports the notes, as a task on the queue.', task: 'required' })
  @McpScopes('notes.read')
  async importNotes(@McpContext() ctx: McpCallContext) {
    const request = ctx.httpRequest as { user?: { sub?: string }; auth?: { clientId?: string } };
    // What the worker sees of the caller: its identity and scopes, from the job.
    return JSON.stringify({
      sub: request.user?.sub,
      clientId: request.auth?.clientId,
      scopes: ctx.scopes,
      sdkClientId: ctx.serverContext.http?.authInfo?.clientId,
      token: (ctx.serverContext.http?.authInfo as { token?: string } | undefined)?.token ?? null,
    });
  }

  @McpTool({ description: 'Logs, and greets.' })
  async greet(@McpContext() ctx: McpCallContext) {
    await ctx.log('info', 'greeting');
    return `hello ${(ctx.httpRequest as { user?: { sub?: string } }).user?.sub}`;
  }
}

function notesModule(issuer: string, redisUrl: string): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'notes',
        version: '1.0.0',
        auth: { authorizationServers: [issuer] },
        // The resource is derived from the request (the port is known once listening).
        http: { allowedHosts: ['127.0.0.1'], legacySessions: true },
        scaleOut: new RedisScaleOut({ connection: redisUrl, instanceId: 'n1' }),
        requestState: { secret: 'c'.repeat(64) },
        tasks: { queue: 'imports' },
      }),
    ],
    providers: [Notes],
  })
  class NotesModule {}
  return NotesModule;
}

/** A 2026-07-28 request with the bearer token and the tasks extension: its JSON-RPC message. */
const modern = async (url: URL, token: string, method: string, params: Record<string, unknown>) =>
  (await callWithToken(url, token, method, params)).message;

/** Every value of one key as text, whatever the key's type. */
async function valuesOf(admin: Redis, key: string): Promise<string[]> {
  const type = await admin.type(key);
  switch (type) {
    case 'string':
      return [(await admin.getBuffer(key))?.toString('latin1') ?? ''];
    case 'hash':
      return Object.entries(await admin.hgetall(key)).flat();
    case 'list':
      return admin.lrange(key, 0, -1);
    case 'set':
      return admin.smembers(key);
    case 'zset':
      return admin.zrange(key, '0', '-1', 'WITHSCORES');
    case 'stream':
      return (await admin.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    case 'none':
      return [];
    default:
      throw new Error(`Key ${key} has a type this test does not read: ${type}`);
  }
}

/** Every key of the instance with its values: SCAN over the whole keyspace. */
async function everything(admin: Redis): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'COUNT', '1000');
    cursor = next;
    for (const key of keys) found.set(key, await valuesOf(admin, key));
  } while (cursor !== '0');
  return found;
}

describe('no credential at rest (auth, scaleOut, tasks.queue)', () => {
  const logs = new CapturedLogs();
  let issuer: TokenIssuer;
  let running: RunningApp;
  let token: string;

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    running = await startApp(notesModule(issuer.issuer, redis.server.url), { logger: logs });
    token = await issuer.mint(running.url.href, { scope: 'notes.read' });
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    await issuer?.close();
  });

  it('keeps the token out of Redis and the logs, while the worker sees who the caller is', async () => {
    // A queued task, run to its end by the instance's worker.
    const created = await modern(running.url, token, 'tools/call', {
      name: 'import_notes',
      arguments: {},
    });
    const taskId = created.result?.task?.taskId ?? created.result?.taskId;
    expect(taskId, JSON.stringify(created)).toEqual(expect.any(String));
    const done = await until(
      () => modern(running.url, token, 'tasks/get', { taskId }).then((answer) => answer.result),
      (task) => task?.status === 'completed',
    );

    // A 2025 session with the same token: its streams' events go to Redis.
    const client = new LegacyClient({ name: 'at-rest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(running.url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const greeted = await client.callTool({ name: 'greet', arguments: {} });
    expect(greeted.content).toEqual([{ type: 'text', text: 'hello user-1' }]);
    await client.close();

    const stored = await everything(redis.admin);
    const keys = [...stored.keys()];
    // What was written: the task, its job (kept after it ended), the session's events.
    expect(keys.some((key) => key.startsWith(`mcp:notes:task:${taskId}`))).toBe(true);
    expect(keys).toContain(`mcp:notes.imports:${taskId}`);
    expect(keys.some((key) => key.startsWith('mcp:notes:session:n1.'))).toBe(true);
    const job = stored.get(`mcp:notes.imports:${taskId}`)!;
    expect(job.join('\n')).toContain('notes.read');
    // The signature alone is enough to find a token cut or re-encoded.
    const signature = token.split('.')[2]!;
    for (const [key, values] of stored) {
      for (const value of [key, ...values]) {
        expect(value, `Redis key ${key}`).not.toContain(signature);
        expect(value, `Redis key ${key}`).not.toMatch(/authorization|bearer /i);
      }
    }
    for (const entry of logs.entries) {
      expect(JSON.stringify(entry)).not.toContain(signature);
    }
    // The worker ran the method with the caller's identity and scopes, and no token.
    expect(JSON.parse(done.result.content[0].text)).toEqual({
      sub: 'user-1',
      clientId: 'test-client',
      scopes: ['notes.read'],
      sdkClientId: 'test-client',
      token: null,
    });
  }, 30_000);
});
