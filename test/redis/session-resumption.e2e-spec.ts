// A 2025 session's resumable stream with its events in Redis (scaleOut): the GET stream's
// events are stored under the session's own keys, and a client that reconnects with
// `Last-Event-ID` is replayed what came after it, from Redis.
import { ExpressAdapter } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServerHost } from '../../lib/index.js';
import { Jobs, JOBS_TOKEN, jobsModule } from '../fixtures/redis/jobs.app.js';
import { until } from '../support/jobs-client.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { initializeRequest } from '../transports/stdio/stdio-process.js';

const HEADERS = {
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${JOBS_TOKEN}`,
  'MCP-Protocol-Version': '2025-11-25',
};

/** The events of an SSE response as they arrive: `id` and `data` of each. */
function eventsOf(res: Response) {
  const events: Array<{ id?: string; data?: string }> = [];
  let buffer = '';
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const block of blocks) {
        const event: { id?: string; data?: string } = {};
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4);
          if (line.startsWith('data: ')) event.data = line.slice(6);
        }
        events.push(event);
      }
    }
  })();
  return { events, stop: () => reader.cancel().then(() => reading) };
}

describe('the events of a 2025 session in Redis (scaleOut)', () => {
  let redis: RedisServer;
  let close: () => Promise<void>;
  let url: string;
  let host: McpServerHost;
  let jobs: Jobs;

  beforeAll(async () => {
    redis = await startRedisServer();
    const moduleRef = await Test.createTestingModule({
      imports: [jobsModule(redis.url, 'r1')],
    }).compile();
    const app = moduleRef.createNestApplication(new ExpressAdapter(), { logger: ['error'] });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
    host = app.get(McpServerHost);
    jobs = app.get(Jobs);
    close = () => app.close();
  }, 30_000);

  afterAll(async () => {
    await close?.();
    await redis?.stop();
  });

  it('replays from Redis what came after the Last-Event-ID of a reconnecting client', async () => {
    const init = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'Content-Type': 'application/json' },
      body: JSON.stringify(initializeRequest(1)),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const session = { ...HEADERS, 'Mcp-Session-Id': sessionId };
    await fetch(url, {
      method: 'POST',
      headers: { ...session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });

    // A list change: the tool `count` withdrawn, or published again.
    let published = true;
    const change = () => {
      if (published) host.removeTool('count');
      else host.addTool(jobs, 'count', { description: 'Asks for a number.' });
      published = !published;
    };
    // The GET stream's headers come with its first event: change until it answers.
    const pending = fetch(url, { headers: session });
    let answered: Response | undefined;
    void pending.then((res) => (answered = res));
    await until(
      async () => {
        if (!answered) change();
        return answered;
      },
      (res) => res !== undefined,
    );
    const first = eventsOf(answered!);
    const messages = (stream: typeof first) => stream.events.filter((event) => event.data);
    await until(
      async () => messages(first).length,
      (count) => count >= 1,
    );
    const before = messages(first).length;
    change();
    change();
    await until(
      async () => messages(first).length,
      (count) => count >= before + 2,
    );
    const [seen, missed] = messages(first).slice(before);
    expect(JSON.parse(missed.data!).method).toBe('notifications/tools/list_changed');
    await first.stop();

    // The events are kept in Redis, under the session's own keys.
    const admin = new Redis(redis.url);
    const stored = await admin.lrange(`mcp:jobs:session:${sessionId}:events:{_GET_stream}`, 0, -1);
    admin.disconnect();
    expect(stored.some((entry) => entry.endsWith(missed.data!))).toBe(true);

    // A client that saw only the first reconnects after it: the second is replayed.
    const again = eventsOf(
      await fetch(url, { headers: { ...session, 'Last-Event-ID': seen.id! } }),
    );
    await until(
      async () => messages(again).length,
      (count) => count >= 1,
    );
    await again.stop();
    expect(messages(again)).toEqual([missed]);
  });
});
