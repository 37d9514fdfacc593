import { CacheInterceptor, CacheKey, CacheModule } from '@nestjs/cache-manager';
import {
  type Type,
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Injectable,
  type INestApplication,
  Module,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Throttle, ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { IsString } from 'class-validator';
import {
  MCP_TOOL_CALLED_EVENT,
  McpEvents,
  McpModule,
  McpTool,
  mcpCacheKey,
  type McpModuleOptions,
  type McpToolCalledEvent,
} from 'nestjs-mcp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, referenceIn, type CapturedLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type HttpAdapterName } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

class RatesDto {
  @IsString()
  currency!: string;
}

@Injectable()
class RatesService {
  static computed = 0;

  @McpTool({ description: 'Exchange rate of the day (cached).' })
  @UseInterceptors(CacheInterceptor)
  @CacheKey(mcpCacheKey)
  rate(query: RatesDto) {
    RatesService.computed += 1;
    return { currency: query.currency, rate: 1.08 };
  }

  @McpTool({ description: 'At most two calls a minute.' })
  @UseGuards(ThrottlerGuard)
  @Throttle({ default: { limit: 2, ttl: 60_000 } })
  expensive() {
    return 'done';
  }

  @McpTool({ description: 'Always fails.' })
  broken() {
    throw new Error('boom');
  }
}

/** An app's global filter written for HTTP only: it writes the HTTP response itself. */
@Catch()
class HttpOnlyFilter implements ExceptionFilter {
  static calls = 0;

  catch(exception: unknown, host: ArgumentsHost) {
    HttpOnlyFilter.calls += 1;
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    host.switchToHttp().getResponse().status(status).json({ filtered: true });
  }
}

@Injectable()
class AuditListener {
  static seen: McpToolCalledEvent[] = [];

  @OnEvent(MCP_TOOL_CALLED_EVENT)
  record(event: McpToolCalledEvent) {
    AuditListener.seen.push(event);
  }
}

function appModule(options: Partial<McpModuleOptions> = {}) {
  @Module({
    imports: [
      CacheModule.register(),
      ThrottlerModule.forRoot([{ ttl: 60_000, limit: 100 }]),
      EventEmitterModule.forRoot(),
      McpModule.forRoot({ name: 'rates', version: '1.0.0', ...options }),
    ],
    providers: [RatesService, AuditListener, { provide: APP_FILTER, useClass: HttpOnlyFilter }],
  })
  class RatesAppModule {}
  return RatesAppModule;
}

const start = (module: Function, adapter: HttpAdapterName, logger: CapturedLogs) =>
  startApp(module as Type, { adapter, logger });

const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

/**
 * `broken` failed: the client got a reference and nothing of the error; the log has the
 * tool, that reference and the full detail, once: Nest's own ExceptionsHandler, which runs
 * when no exception filter returns an answer (HttpOnlyFilter returns nothing), does not log it
 * again (captureLogs fails the test on any other error line).
 */
function expectBrokenMasked(result: Record<string, any>, logs: CapturedLogs) {
  expect(JSON.stringify(result)).not.toMatch(/boom|RatesService|Error:/);
  logs.expectError(
    '[ToolInvokerFactory] Tool "broken" (RatesService.broken) failed',
    `[ref ${referenceIn(textOf(result))}]`,
    'Error: boom',
    /at RatesService\.broken /,
  );
}

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(CLIENTS)('interceptors, throttling and events on tools, $era', ({ connect }) => {
    let app: INestApplication;
    let client: TestClient;
    const streamed: McpToolCalledEvent[] = [];
    const logs = captureLogs();

    beforeAll(async () => {
      const started = await start(appModule({ useGlobalFilters: false }), adapter, logs);
      app = started.app;
      app.get(McpEvents).toolCalled.subscribe((event) => streamed.push(event));
      client = await connect(started.url);
    });

    afterAll(async () => {
      await client?.close();
      await app?.close();
    });

    beforeEach(() => {
      streamed.length = 0;
      AuditListener.seen = [];
    });

    it('serves repeated identical calls from CacheInterceptor without running the method', async () => {
      const before = RatesService.computed;
      const first = await client.callTool('rate', { currency: 'USD' });
      const second = await client.callTool('rate', { currency: 'USD' });
      expect(second).toEqual(first);
      expect(RatesService.computed - before).toBe(1);
      await client.callTool('rate', { currency: 'GBP' });
      expect(RatesService.computed - before).toBe(2);
    });

    it('refuses a throttled call telling the model when to retry', async () => {
      await client.callTool('expensive', {});
      await client.callTool('expensive', {});
      const refused = await client.callTool('expensive', {});
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Too Many Requests \(429\): .* Retry after \d+ seconds\.$/);
      expect(refused.structuredContent.retryAfterSeconds).toBeGreaterThan(0);
    });

    it('skips the global filters with useGlobalFilters: false and maps the error itself', async () => {
      const filterCalls = HttpOnlyFilter.calls;
      const result = await client.callTool('broken', {});
      expect(HttpOnlyFilter.calls).toBe(filterCalls);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Internal error/);
      expectBrokenMasked(result, logs);
    });

    it('publishes one event per executed call after the response, on the stream and through event-emitter', async () => {
      await client.callTool('rate', { currency: 'CHF' }); // executed
      await client.callTool('rate', { currency: 'CHF' }); // cache hit: no event
      await client.callTool('rate', { currency: 1 }); // refused by validation: no event
      const broken = await client.callTool('broken', {}); // executed, outcome error
      expectBrokenMasked(broken, logs);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(streamed.map((event) => [event.tool, event.outcome])).toEqual([
        ['rate', 'success'],
        ['broken', 'error'],
      ]);
      expect(streamed[0]).toMatchObject({
        server: 'rates',
        arguments: { currency: 'CHF' },
        durationMs: expect.any(Number),
      });
      expect(AuditListener.seen).toEqual(streamed);
    });
  });

  describe.each(CLIENTS)(
    'a global filter written for HTTP only, with global filters on, $era',
    ({ connect }) => {
      const logs = captureLogs();

      it('cannot break a tool call: what it writes to the response is not sent', async () => {
        const { app, url } = await start(appModule(), adapter, logs);
        const client = await connect(url);
        const result = await client.callTool('broken', {});
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^Internal error/);
        expect(JSON.stringify(result)).not.toContain('filtered');
        expectBrokenMasked(result, logs);
        expect((await client.callTool('rate', { currency: 'SEK' })).isError).toBeFalsy();
        await client.close();
        await app.close();
      });
    },
  );
});
