import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_SEED } from '../../sample/catalog/products.seed.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { connectModernClient, type TestClient } from '../support/mcp-clients.js';
import { connectModernTaskClient } from '../support/task-clients.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { ROOT } from '../transports/stdio/stdio-process.js';
import {
  runSampleToExit,
  SampleInstances,
  scaleOutEnv,
  type SampleInstance,
} from '../support/sample-instances.js';

/**
 * The done-when of the scale-out issue, with the built sample: two processes A and B on one
 * redis-server (SAMPLE_REDIS_URL), as two replicas behind a load balancer. A client of A
 * hears of the products changed through B, on 2026-07-28 (`subscriptions/listen`) and on a
 * 2025 session (`resources/subscribe`); 1,000 changes arrive once each; a 2025 session sent
 * to the wrong instance is told where it lives; and losing Redis stops only what needs it.
 * The tasks across instances are in sample-scale-out-tasks.e2e-spec.ts.
 */
const ADMIN = SAMPLE_DEFAULTS.adminToken;
const BEARER = { Authorization: `Bearer ${ADMIN}` };
const uriOf = (id: string) => `catalog://products/${id}`;
/** The products the tests change (their ids are fixed, the same in every process). */
const PRODUCTS = PRODUCT_SEED.slice(0, 10).map((product) => product.id);
/**
 * Changed last, after the others: the changes of one instance reach another in the order it
 * made them, so once this one arrived every earlier one did, and a copy would have too.
 */
const SENTINEL = PRODUCT_SEED.at(-1)!.id;
const WAIT = { timeout: 20_000, interval: 50 };

let redis: RedisServer;
const instances = new SampleInstances();
let a: SampleInstance;
let b: SampleInstance;
/** The environment of a sample over stdio on the same Redis (the admin is its caller). */
let stdioEnv: Record<string, string>;

beforeAll(async () => {
  redis = await startRedisServer();
  const env = scaleOutEnv(redis.url, randomBytes(32).toString('hex'));
  stdioEnv = { ...env, SAMPLE_TOKEN: ADMIN };
  [a, b] = await Promise.all([instances.start('A', env), instances.start('B', env)]);
}, 60_000);

afterAll(async () => {
  await instances.stopAll();
  await redis?.stop();
});

/** `PATCH /products/:id` on an instance's REST API, as the admin. */
async function patch(instance: SampleInstance, id: string, changes: Record<string, unknown>) {
  const res = await fetch(`${instance.origin}/products/${id}`, {
    method: 'PATCH',
    headers: { ...BEARER, 'Content-Type': 'application/json' },
    body: JSON.stringify(changes),
  });
  expect(res.status).toBe(200);
}

/** A 2026-07-28 `subscriptions/listen` stream, counting the updates it hears per URI. */
async function listen(instance: SampleInstance, uris: string[]) {
  const client: TestClient = await connectModernClient(instance.url, ADMIN);
  const heard = new Map<string, number>();
  client.sdk.setNotificationHandler(
    'notifications/resources/updated',
    (notification: { params: { uri: string } }) => {
      const { uri } = notification.params;
      heard.set(uri, (heard.get(uri) ?? 0) + 1);
    },
  );
  const subscription = await client.sdk.listen({ resourceSubscriptions: uris });
  expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: uris });
  return {
    count: (uri: string) => heard.get(uri) ?? 0,
    heard,
    async close() {
      await subscription.close();
      await client.close();
    },
  };
}

describe('a change made through B', () => {
  it('reaches a 2026-07-28 listen stream on A exactly once, from a tool call and from REST', async () => {
    const [toolId, restId] = PRODUCTS;
    const stream = await listen(a, [uriOf(toolId), uriOf(restId), uriOf(SENTINEL)]);
    const writer = await connectModernClient(b.url, ADMIN);
    try {
      const result = await writer.callTool('catalog_update', { id: toolId, stock: 7 });
      expect(result.isError).toBeFalsy();
      await patch(b, restId, { price: 12.5 });
      await patch(b, SENTINEL, { stock: 3 });
      await expect.poll(() => stream.count(uriOf(SENTINEL)), WAIT).toBe(1);
      expect(Object.fromEntries(stream.heard)).toEqual({
        [uriOf(toolId)]: 1,
        [uriOf(restId)]: 1,
        [uriOf(SENTINEL)]: 1,
      });
      // A's own copy of the catalog is its own (the sample keeps it in memory).
      const read = await fetch(`${a.origin}/products/${restId}`, { headers: BEARER });
      expect((await read.json()).price).toBe(PRODUCT_SEED[1].price);
    } finally {
      await writer.close();
      await stream.close();
    }
  });

  it('tells a listener of catalog://categories when a product is created or deleted', async () => {
    const stream = await listen(a, ['catalog://categories']);
    const writer = await connectModernClient(b.url, ADMIN);
    try {
      const created = await writer.callTool('create_product', {
        sku: 'KIT-4999',
        name: 'Scale-out kettle',
        description: 'A kettle created through instance B.',
        category: 'kitchen',
        price: 30,
        stock: 2,
      });
      expect(created.isError).toBeFalsy();
      await expect.poll(() => stream.count('catalog://categories'), WAIT).toBe(1);
      const deleted = await writer.callTool('delete_product', { id: created.structuredContent.id });
      expect(deleted.isError).toBeFalsy();
      await expect.poll(() => stream.count('catalog://categories'), WAIT).toBe(2);
    } finally {
      await writer.close();
      await stream.close();
    }
  });

  it('reaches a 2025 session on A that subscribed to the product', async () => {
    const [id] = PRODUCTS;
    const client = new LegacyClient({ name: 'e2e-v1-subscriber', version: '1.0.0' });
    const heard: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      heard.push(notification.params.uri);
    });
    const transport = new LegacyTransport(a.url, { requestInit: { headers: BEARER } });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^A\./);
      await client.subscribeResource({ uri: uriOf(id) });
      // The session's GET stream opens after initialize: change until one reaches it.
      let stock = 100;
      await expect
        .poll(async () => {
          await patch(b, id, { stock: stock++ });
          return heard.length;
        }, WAIT)
        .toBeGreaterThan(0);
      expect(new Set(heard)).toEqual(new Set([uriOf(id)]));
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

describe('a change made through B, heard over stdio', () => {
  it('reaches a stdio connection of the sample on the same Redis', async () => {
    const [, , id] = PRODUCTS;
    const client = new LegacyClient({ name: 'e2e-v1-stdio', version: '1.0.0' });
    const heard: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      heard.push(notification.params.uri);
    });
    const transport = new LegacyStdioTransport({
      command: process.execPath,
      args: ['dist-sample/main-stdio.js'],
      cwd: ROOT,
      env: { ...stdioEnv },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      await client.subscribeResource({ uri: uriOf(id) });
      await patch(b, id, { stock: 11 });
      await patch(b, SENTINEL, { stock: 12 });
      await client.subscribeResource({ uri: uriOf(SENTINEL) });
      await patch(b, SENTINEL, { stock: 13 });
      await expect.poll(() => heard.includes(uriOf(SENTINEL)), WAIT).toBe(true);
      expect(heard.filter((uri) => uri === uriOf(id))).toEqual([uriOf(id)]);
    } finally {
      await client.close();
    }
  });
});

describe('1,000 changes made through B', () => {
  it('reach a listen stream on A, each exactly once', async () => {
    const perProduct = 100;
    const stream = await listen(a, [...PRODUCTS.map(uriOf), uriOf(SENTINEL)]);
    try {
      const changes = PRODUCTS.flatMap((id) =>
        Array.from({ length: perProduct }, (_, n) => ({ id, stock: n })),
      );
      // Twenty requests at a time, as a busy client would send them.
      for (let start = 0; start < changes.length; start += 20) {
        await Promise.all(
          changes.slice(start, start + 20).map(({ id, stock }) => patch(b, id, { stock })),
        );
      }
      await patch(b, SENTINEL, { stock: 1 });
      await expect.poll(() => stream.count(uriOf(SENTINEL)), WAIT).toBe(1);
      expect(PRODUCTS.map((id) => stream.count(uriOf(id)))).toEqual(PRODUCTS.map(() => perProduct));
    } finally {
      await stream.close();
    }
  }, 60_000);
});

describe('a 2025 session', () => {
  it('sent to the instance that did not open it gets 404 naming the one that did', async () => {
    const client = new LegacyClient({ name: 'e2e-v1-misrouted', version: '1.0.0' });
    const transport = new LegacyTransport(a.url, { requestInit: { headers: BEARER } });
    await client.connect(transport);
    try {
      const res = await fetch(b.url, {
        method: 'POST',
        headers: {
          ...BEARER,
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
          'MCP-Protocol-Version': '2025-11-25',
          'Mcp-Session-Id': transport.sessionId!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(404);
      const { error } = await res.json();
      expect(error.message).toContain('it was opened on instance A');
      expect(error.message).toContain('sticky sessions');
      // On A, where it was opened, the same session still answers.
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

describe('the sample without Redis', () => {
  it('tells its own listen streams of its own changes', async () => {
    const solo = await instances.start('solo', {});
    const [id] = PRODUCTS;
    const stream = await listen(solo, [uriOf(id)]);
    try {
      await patch(solo, id, { stock: 5 });
      await expect.poll(() => stream.count(uriOf(id)), WAIT).toBe(1);
      expect(solo.output()).not.toContain('shares its changes and tasks');
    } finally {
      await stream.close();
    }
  });
});

describe('the sample with SAMPLE_REDIS_URL and no SAMPLE_STATE_SECRET', () => {
  it('fails at bootstrap, naming the variable', async () => {
    const ended = await runSampleToExit({ SAMPLE_REDIS_URL: redis.url, SAMPLE_STATE_SECRET: '' });
    expect(ended.code).not.toBe(0);
    expect(ended.output).toContain('SAMPLE_REDIS_URL needs SAMPLE_STATE_SECRET');
    expect(ended.output).not.toContain('MCP endpoint:');
  });
});

describe('while Redis is stopped', () => {
  it('answers stateless calls, refuses tasks clearly, and shares changes again once it is back', async () => {
    const stream = await listen(a, [uriOf(SENTINEL)]);
    const client = await connectModernClient(a.url, ADMIN);
    const tasks = await connectModernTaskClient(a.url, { token: ADMIN });
    try {
      await redis.stop();
      const search = await client.callTool('search_products', { query: 'sourdough' });
      expect(search.isError).toBeFalsy();
      expect(search.structuredContent.total).toBeGreaterThan(0);

      // With the tasks extension declared, reindex_catalog becomes a task, which needs Redis.
      const task = await tasks.request('tools/call', { name: 'reindex_catalog', arguments: {} });
      const refusal = task.message.error?.message ?? JSON.stringify(task.message.result);
      expect(task.message.error ?? task.message.result.isError).toBeTruthy();
      expect(refusal).toContain('Redis is unavailable');

      await redis.restart();
      let stock = 200;
      await expect
        .poll(async () => {
          await patch(b, SENTINEL, { stock: stock++ });
          return stream.count(uriOf(SENTINEL));
        }, WAIT)
        .toBeGreaterThan(0);
    } finally {
      await tasks.close();
      await client.close();
      await stream.close();
    }
  }, 60_000);
});
