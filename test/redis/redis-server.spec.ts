import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

describe('test/support/redis-server (a real redis-server per test file)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('serves commands, and restarts empty on the same port', async () => {
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: null });
    await client.connect();
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    await server.restart();
    // ioredis reconnects by itself; the new server has no data.
    expect(await client.get('k')).toBeNull();
    client.disconnect();
  });
});
