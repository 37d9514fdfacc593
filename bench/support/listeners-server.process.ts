import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTick, setTimeout as sleep } from 'node:timers/promises';
import { writeHeapSnapshot } from 'node:v8';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { answerCommands } from './listeners-child.js';
import { nowMs, type ListenersServerSpec, type ServerMemory } from './listeners-ipc.js';

// One server of the listeners bench (bench/listeners.ts), alone in its process so that its
// memory is its own: the clients are in another process.

const spec = JSON.parse(process.argv[2] ?? '{}') as ListenersServerSpec;

/** The app of the scenario, and how it tells every stream of one change. */
async function loadApp(): Promise<{ app: INestApplication; broadcast: () => void }> {
  const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
  if (spec.scenario === 'plain') {
    const { plainEventsAppModule, PlainEvents } = await import('../apps/listeners-plain.app.js');
    const app = await NestFactory.create(plainEventsAppModule, options);
    const events = app.get(PlainEvents);
    return { app, broadcast: () => events.publish() };
  }
  const { createListenersMcpApp, Ticker } = await import('../apps/listeners-mcp.app.js');
  const module = createListenersMcpApp(spec.capacity, spec.scenario === 'sessions-2025');
  const app = await NestFactory.create(module, options);
  const ticker = app.get(Ticker);
  return { app, broadcast: () => ticker.changed() };
}

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the listeners server with --expose-gc');
  for (let pass = 0; pass < 4; pass += 1) {
    gc();
    await nextTick();
  }
}

const ms = (nanoseconds: number) => nanoseconds / 1e6;

const connections = (server: Server) =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

async function main(): Promise<void> {
  const { app, broadcast } = await loadApp();
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  let cpuAtTrigger = process.cpuUsage();
  const profiler = new Session();

  answerCommands(async (command) => {
    switch (command.command) {
      case 'memory': {
        await collectGarbage();
        const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
        const memory: ServerMemory = {
          rss,
          heapUsed,
          heapTotal,
          external,
          arrayBuffers,
          connections: await connections(server),
        };
        return { memory };
      }
      case 'loop-delay': {
        // The server's own CPU while idle first, without the samplers (which wake it up).
        const cpu = process.cpuUsage();
        await sleep(command.seconds * 1000);
        const used = process.cpuUsage(cpu);
        const histogram = monitorEventLoopDelay({ resolution: 10 });
        const fine = monitorEventLoopDelay({ resolution: 1 });
        histogram.enable();
        fine.enable();
        await sleep(command.seconds * 1000);
        histogram.disable();
        fine.disable();
        return {
          delay: {
            p50Ms: ms(histogram.percentile(50)),
            p99Ms: ms(histogram.percentile(99)),
            maxMs: ms(histogram.max),
            fineP99Ms: ms(fine.percentile(99)),
            cpuMsPerSecond: (used.user + used.system) / 1000 / command.seconds,
            seconds: command.seconds,
          },
        };
      }
      case 'broadcast': {
        cpuAtTrigger = process.cpuUsage();
        const triggeredAt = nowMs();
        broadcast();
        return { triggeredAt };
      }
      case 'broadcast-cpu': {
        const used = process.cpuUsage(cpuAtTrigger);
        return { cpuMs: (used.user + used.system) / 1000 };
      }
      case 'profile-start':
        await profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        return {};
      case 'profile-stop': {
        const { profile } = await profiler.post('Profiler.stop');
        profiler.disconnect();
        writeFileSync(command.file, JSON.stringify(profile));
        return {};
      }
      case 'snapshot':
        await collectGarbage();
        writeHeapSnapshot(command.file);
        return {};
      case 'close':
        // The streams never end by themselves: the clients are closed first.
        await app.close();
        return {};
      default:
        throw new Error(`a listeners server does not answer "${command.command}"`);
    }
  });
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
