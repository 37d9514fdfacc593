import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpModule, McpServers, McpTool } from '../../lib/index.js';
import { ProtocolRuntimes } from '../../lib/protocol/protocol-runtimes.js';
import { RedisScaleOut } from '../../lib/redis/index.js';
import { freePort, startRedisServer, type RedisServer } from '../support/redis-server.js';

const requestState = { secret: 'c'.repeat(64) };

@Injectable()
class Echo {
  @McpTool({ description: 'Echoes.' })
  echo(): string {
    return 'echo';
  }
}

/** An app with two servers on one RedisScaleOut, `scaleOut` used by both. */
async function appWith(scaleOut: RedisScaleOut) {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'one', version: '1', http: false, scaleOut, requestState }),
      McpModule.forRoot({ name: 'two', version: '1', http: false, scaleOut, requestState }),
    ],
    providers: [Echo],
  })
  class TwoServers {}
  const moduleRef = await Test.createTestingModule({ imports: [TwoServers] }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

describe('RedisScaleOut', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('fails the bootstrap with a message naming Redis when it cannot be reached', async () => {
    const port = await freePort();
    const app = await appWith(new RedisScaleOut({ connection: `redis://127.0.0.1:${port}` }));
    await expect(app.init()).rejects.toThrow(
      `nestjs-mcp/redis: Redis at 127.0.0.1:${port} cannot be reached (connect ECONNREFUSED`,
    );
    await app.close();
  });

  it('serves several servers of one app, each with its own changes, and closes once', async () => {
    const shared = new RedisScaleOut({ connection: redis.url, instanceId: 'one-app' });
    const app = await appWith(shared);
    await app.init();
    const other = new RedisScaleOut({ connection: redis.url, instanceId: 'other-app' });
    const peer = await appWith(other);
    await peer.init();
    const heard: string[] = [];
    // What the peer's transports hear of each server.
    const runtimes = peer.get(ProtocolRuntimes);
    runtimes.get('one')!.onChange(() => heard.push('one'));
    runtimes.get('two')!.onChange(() => heard.push('two'));
    app.get(McpServers).get('two').resourceUpdated('mem://x');
    const deadline = Date.now() + 10_000;
    while (heard.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['two']);
    // Each server releases the shared connections; the last one closes them.
    await app.close();
    await peer.close();
  });

  it('shuts down while Redis is away, without waiting for it to come back', async () => {
    const own = await startRedisServer();
    const app = await appWith(new RedisScaleOut({ connection: own.url, instanceId: 'leaving' }));
    await app.init();
    await own.stop();
    // Resolves (a hang fails the test by its timeout): nothing waits on the dead connections.
    await app.close();
  });

  it('refuses an instance id that would not fit in a session id', () => {
    expect(() => new RedisScaleOut({ connection: redis.url, instanceId: 'a.b' })).toThrow(
      "RedisScaleOut: instanceId must be 1 to 64 letters, digits, '_' or '-' (got \"a.b\")",
    );
  });
});
