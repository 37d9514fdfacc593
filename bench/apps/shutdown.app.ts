// The server of the shutdown-under-load run (bench/shutdown.ts): one MCP server with a slow
// tool, as an app deploys it (`app.enableShutdownHooks()`, as sample/main.ts), started as a
// script that prints `listening <port>` and runs until SIGTERM. Settings come from the
// environment: SHUTDOWN_GRACE_MS (`http.shutdownTimeoutMs`), SHUTDOWN_ADAPTER (express or
// fastify).
import 'reflect-metadata';
import { Injectable, Module, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsInt, Max, Min } from 'class-validator';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { McpContext, McpModule, McpTool, type McpCallContext } from 'nestjs-mcp';

export const SLOW_TOOL = 'slow_work';

export class SlowWorkDto {
  /** How long the call works, in milliseconds. */
  @IsInt()
  @Min(0)
  @Max(600_000)
  ms!: number;
}

@Injectable()
export class SlowTools {
  @McpTool({ description: 'Works for `ms` milliseconds, then says so; stops when aborted.' })
  async slowWork({ ms }: SlowWorkDto, @McpContext() ctx: McpCallContext): Promise<string> {
    await pause(ms, undefined, { signal: ctx.signal });
    return `worked ${ms} ms`;
  }
}

/** The app: every caller may hold as many streams and sessions as the run opens. */
export function shutdownAppModule(graceMs: number): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'shutdown-bench',
        version: '1.0.0',
        http: {
          shutdownTimeoutMs: graceMs,
          maxStreamsPerCaller: 100_000,
          legacySessions: { maxSessionsPerCaller: 100_000 },
        },
      }),
    ],
    providers: [SlowTools],
  })
  class ShutdownBenchModule {}
  return ShutdownBenchModule;
}

async function createApp(module: Type, adapter: string): Promise<INestApplication> {
  const logger = ['error', 'warn', 'log'] as const;
  if (adapter === 'fastify') {
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    return NestFactory.create(module, new FastifyAdapter(), { logger: [...logger] });
  }
  return NestFactory.create(module, { logger: [...logger] });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 5_000);
  const app = await createApp(
    shutdownAppModule(graceMs),
    process.env.SHUTDOWN_ADAPTER ?? 'express',
  );
  // As sample/main.ts: SIGTERM runs the shutdown hooks, then Nest raises it again.
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening ${port}\n`);
}
