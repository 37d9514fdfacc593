import 'reflect-metadata';
import { ConsoleLogger, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpResource, McpServerHost, McpTool, type McpHttpOptions } from 'nestjs-mcp';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  FEED,
  type MemoryFigures,
  type PublishFigures,
  type SlowReadersCommand,
} from './slow-readers-ipc.js';

// The server of bench/slow-readers.ts, in a process of its own so that its memory is its
// own: an MCP endpoint with one tool and one resource whose updates the driver asks it to
// broadcast (IPC: `publish`, `memory`, `close`).

@Injectable()
class FeedTools {
  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }

  @McpResource({ uri: FEED, description: 'A feed that changes often.', mimeType: 'text/plain' })
  feed() {
    return 'news';
  }
}

/** Counts the streams the endpoint closes at the bound (it warns once for each). */
class CountingLogger extends ConsoleLogger {
  closedStreams = 0;
  override warn(message: unknown, ...rest: unknown[]) {
    if (String(message).includes('http.maxStreamBufferBytes')) this.closedStreams += 1;
    else super.warn(message, ...rest);
  }
}

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the server with --expose-gc');
  for (let pass = 0; pass < 4; pass += 1) {
    gc();
    await nextTurn();
  }
}

/** Publishes `count` updates evenly over `durationMs`, letting requests in between. */
async function publish(
  host: McpServerHost,
  count: number,
  durationMs: number,
  logger: CountingLogger,
) {
  const started = performance.now();
  let peakRss = 0;
  let peakHeapUsed = 0;
  const sample = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  }, 20);
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.ceil(((performance.now() - started) / durationMs) * count));
    for (; sent < due; sent += 1) host.resourceUpdated(FEED);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clearInterval(sample);
  const figures: PublishFigures = {
    elapsedMs: performance.now() - started,
    peakRss,
    peakHeapUsed,
    closedStreams: logger.closedStreams,
  };
  return figures;
}

const reply = (message: object, then?: () => void) =>
  process.send?.(message, undefined, {}, () => then?.());

async function main(): Promise<void> {
  const http = JSON.parse(process.argv[2] ?? '{}') as McpHttpOptions;
  @Module({
    imports: [McpModule.forRoot({ name: 'slow-readers', version: '1.0.0', http })],
    providers: [FeedTools],
  })
  class SlowReadersModule {}

  const logger = new CountingLogger();
  logger.setLogLevels(['error', 'warn']);
  const app = await NestFactory.create(SlowReadersModule, { logger });
  await app.listen(0, '127.0.0.1');
  const host = app.get(McpServerHost);

  process.on('message', async (message: SlowReadersCommand) => {
    try {
      if (message.command === 'memory') {
        await collectGarbage();
        const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
        const memory: MemoryFigures = { rss, heapUsed, external, arrayBuffers };
        reply({ id: message.id, memory });
      } else if (message.command === 'publish') {
        const figures = await publish(host, message.count, message.durationMs, logger);
        reply({ id: message.id, publish: figures });
      } else {
        await app.close();
        reply({ id: message.id }, () => process.exit(0));
      }
    } catch (error) {
      reply({ id: message.id, error: String((error as Error)?.stack ?? error) });
    }
  });
  reply({ ready: true, port: ((app.getHttpServer() as Server).address() as AddressInfo).port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
