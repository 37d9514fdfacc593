import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTick } from 'node:timers/promises';
import type {
  CpuReading,
  MemoryReading,
  ReadyMessage,
  ServerCommand,
  ServerReply,
  ServerSpec,
} from './support/ipc.js';
import { setUpTelemetry } from './apps/telemetry.setup.js';
import { AllocationSampler } from './support/allocation-sampler.js';

// A bench server: one variant in a process of its own, so that the CPU time it reports
// (`process.cpuUsage()`) is the server's alone. Driven over IPC by bench/run.ts.

const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
const send = (message: ReadyMessage | ServerReply, then?: () => void) =>
  process.send?.(message, undefined, {}, () => then?.());

interface LoadedApp {
  module: Type;
  /** Run between `NestFactory.create` and `listen` (inside the bootstrap time). */
  beforeListen?: (app: INestApplication) => Promise<void>;
  close?: () => Promise<void>;
}

async function appModuleOf(of: ServerSpec): Promise<LoadedApp> {
  switch (of.kind) {
    case 'ceiling':
      return { module: (await import('./apps/ceiling.app.js')).ceilingAppModule };
    case 'raw-sdk': {
      const { createRawSdkAppModule, closeRawSdk } = await import('./apps/raw-sdk.app.js');
      return { module: createRawSdkAppModule(of.bridge), close: closeRawSdk };
    }
    case 'mcp': {
      const { createMcpAppModule } = await import('./apps/mcp.app.js');
      return {
        module: createMcpAppModule({
          tools: of.tools,
          mcp: of.mcp ?? true,
          // `floor` setups instrument the app by hand instead (apps/telemetry.setup.ts).
          telemetry:
            of.telemetry === undefined ||
            !['http-off', 'floor', 'floor-node'].includes(of.telemetry),
          ...(of.leanPath !== undefined && { leanPath: of.leanPath }),
          ...(of.i18n && { i18n: (await import('./apps/i18n.setup.js')).benchI18n(of.tools) }),
        }),
      };
    }
    case 'mcp-nest':
      return (await import('./apps/mcp-nest.app.js')).createMcpNestApp(of.tools);
  }
}

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the bench server with --expose-gc');
  for (let pass = 0; pass < 4; pass += 1) {
    gc();
    await nextTick();
  }
}

async function memory(): Promise<MemoryReading> {
  await collectGarbage();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
}

async function main(): Promise<void> {
  // As an app's tracing.ts: the providers are registered before the library is loaded.
  const telemetry = await setUpTelemetry(spec.kind === 'mcp' ? spec.telemetry : undefined);
  // Loading the app's code is not part of bootstrap; making and starting the app is.
  const loaded = await appModuleOf(spec);
  const started = performance.now();
  const app: INestApplication = await NestFactory.create(loaded.module, {
    logger: ['error', 'warn'],
  });
  await loaded.beforeListen?.(app);
  await app.listen(0, '127.0.0.1');
  const listening = performance.now();
  const server = app.getHttpServer() as Server;
  telemetry.instrument?.(server);

  let requests = 0;
  server.on('request', () => {
    requests += 1;
  });

  let window: { cpu: NodeJS.CpuUsage; requests: number; at: number } | undefined;
  const sampler = new AllocationSampler();
  let allocationsFrom = 0;
  process.on('message', async (message: ServerCommand) => {
    try {
      switch (message.command) {
        case 'cpu-start':
          window = { cpu: process.cpuUsage(), requests, at: performance.now() };
          send({ id: message.id, ok: true });
          break;
        case 'cpu-stop': {
          if (!window) throw new Error('cpu-stop without cpu-start');
          const used = process.cpuUsage(window.cpu);
          const cpu: CpuReading = {
            userUs: used.user,
            systemUs: used.system,
            requests: requests - window.requests,
            wallMs: performance.now() - window.at,
            startedAtMs: window.at,
          };
          window = undefined;
          send({ id: message.id, ok: true, cpu });
          break;
        }
        case 'alloc-start':
          allocationsFrom = requests;
          await sampler.start();
          send({ id: message.id, ok: true });
          break;
        case 'alloc-stop':
          send({
            id: message.id,
            ok: true,
            allocations: await sampler.stop(requests - allocationsFrom),
          });
          break;
        case 'memory':
          send({ id: message.id, ok: true, memory: await memory() });
          break;
        case 'telemetry':
          send({
            id: message.id,
            ok: true,
            telemetry: { ...(await telemetry.reading()), httpRequests: requests },
          });
          break;
        case 'close':
          await app.close();
          await loaded.close?.();
          await telemetry.shutdown();
          // Exit on purpose (a `--cpu-prof` run writes its profile on exit).
          send({ id: message.id, ok: true }, () => process.exit(0));
          break;
      }
    } catch (error) {
      send({ id: message.id, ok: false, error: String((error as Error)?.stack ?? error) });
    }
  });

  send({
    type: 'ready',
    port: (server.address() as AddressInfo).port,
    bootMs: listening - started,
    sinceProcessStartMs: listening,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
