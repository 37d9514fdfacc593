import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool } from 'nestjs-mcp';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../../support/mcp-post.js';

@Injectable()
class PingTools {
  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }
}

@Module({
  imports: [
    McpModule.forRoot({ name: 'streams', version: '1.0.0', http: { maxStreamsPerCaller: 2 } }),
  ],
  providers: [PingTools],
})
class StreamsAppModule {}

/** A 2026-07-28 `subscriptions/listen` stream of a caller, once its head has come. */
function listen(url: URL, authorization: string) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: modernMeta('streams-spec') },
  });
  return new Promise<{ status: number; ended: Promise<void>; close(): void }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': MODERN_VERSION,
          'mcp-method': 'subscriptions/listen',
        },
      },
      (res) => {
        res.resume();
        const ended = new Promise<void>((done) => res.on('close', () => done()));
        resolve({ status: res.statusCode ?? 0, ended, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Whether a stream is still open a little later (it ends only when the server ends it). */
const stillOpen = (stream: { ended: Promise<void> }) =>
  Promise.race([
    stream.ended.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 100)),
  ]);

describe.each(ADAPTERS)('the long-lived streams of one caller, on %s', (adapter) => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(StreamsAppModule, { adapter });
  });
  afterAll(() => running?.close());

  it('ends the caller’s oldest stream beyond http.maxStreamsPerCaller, and no one else’s', async () => {
    const alice = 'Bearer alice';
    const bob = 'Bearer bob';
    const first = await listen(running.url, alice);
    const bobs = await listen(running.url, bob);
    const second = await listen(running.url, alice);
    expect([first.status, bobs.status, second.status]).toEqual([200, 200, 200]);
    expect(await stillOpen(first)).toBe(true);

    const third = await listen(running.url, alice);
    expect(third.status).toBe(200);
    await first.ended;
    expect(await stillOpen(second)).toBe(true);
    expect(await stillOpen(third)).toBe(true);
    expect(await stillOpen(bobs)).toBe(true);
    for (const stream of [second, third, bobs]) stream.close();
  });
});
