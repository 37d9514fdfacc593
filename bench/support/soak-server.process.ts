import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { SoakAppModule, soakCounters } from '../apps/soak.app.js';
import type { SoakCommand, SoakSample, SoakServerMessage } from './soak-ipc.js';

// The soak's server (bench/soak.ts): the soak app in a process of its own, started with
// --expose-gc, reporting its memory, descriptors, handles and event-loop delay every 10 s.

const SAMPLE_EVERY_MS = 10_000;

const send = (message: SoakServerMessage) => process.send?.(message);

function handleKinds(): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) kinds[kind] = (kinds[kind] ?? 0) + 1;
  return kinds;
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the soak server with --expose-gc');
  const app = await NestFactory.create(SoakAppModule, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  const listenedAt = performance.now();
  let requests = 0;
  server.on('request', () => {
    requests += 1;
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();

  const sample = (kind: SoakSample['kind'], label?: string): SoakSample => {
    // The delay is read before the collections, which would add their own pause to it.
    const eventLoopP99Ms = delay.percentile(99) / 1e6;
    const eventLoopMaxMs = delay.max / 1e6;
    // Two full collections in a row, read at once: nothing allocated in between.
    gc();
    gc();
    const { heapUsed, rss } = process.memoryUsage();
    const taken: SoakSample = {
      kind,
      ...(label !== undefined && { label }),
      atS: (performance.now() - listenedAt) / 1000,
      requests,
      heapUsed,
      rss,
      fds: readdirSync('/proc/self/fd').length,
      handles: process.getActiveResourcesInfo().length,
      handleKinds: handleKinds(),
      eventLoopP99Ms,
      eventLoopMaxMs,
      counters: { ...soakCounters },
    };
    delay.reset();
    return taken;
  };

  const timer = setInterval(
    () => send({ type: 'sample', sample: sample('periodic') }),
    SAMPLE_EVERY_MS,
  );
  timer.unref();
  process.on('message', async (message: SoakCommand) => {
    if (message.command === 'sample') {
      send({ type: 'sample', id: message.id, sample: sample('mark', message.label) });
      return;
    }
    clearInterval(timer);
    delay.disable();
    await app.close();
    process.send?.({ type: 'closed', id: message.id } satisfies SoakServerMessage, () =>
      process.exit(0),
    );
  });
  // A driver that died leaves no server behind.
  process.on('disconnect', () => process.exit(1));
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
