import { Injectable, Module } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { McpContext, McpModule, McpTool, type McpCallContext } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernRequest } from '../support/mcp-post.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { InMemoryOtel } from './in-memory-otel.js';

const TASKS_META = {
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

@Injectable()
class ReportTools {
  @McpTool({ description: 'Builds a report in the background.', task: 'required' })
  async buildReport(@McpContext() ctx: McpCallContext) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await ctx.task?.setStatus('written');
    return 'report ready';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'reports', version: '1.0.0' })],
  providers: [ReportTools],
})
class ReportsModule {}

describe('the span of a task run', () => {
  let otel: InMemoryOtel;
  let running: RunningApp;

  beforeAll(async () => {
    otel = InMemoryOtel.install();
    running = await startApp(ReportsModule);
  });

  afterAll(async () => {
    await running.close();
    await otel.uninstall();
  });

  it('is a root span of its own, linked to the tools/call that started the task', async () => {
    const created = await modernRequest(running.app, '/mcp', 'tools/call', {
      name: 'build_report',
      arguments: {},
      _meta: TASKS_META,
    });
    const { taskId } = created.body.result as { taskId: string };
    expect(created.body.result.resultType).toBe('task');
    await expect
      .poll(() =>
        otel.spans.getFinishedSpans().find((span) => span.name === 'tasks/run build_report'),
      )
      .toBeDefined();
    const spans = otel.spans.getFinishedSpans();
    const run = spans.find((span) => span.name === 'tasks/run build_report')!;
    const call = spans.find(
      (span) =>
        span.kind === SpanKind.SERVER && span.attributes['mcp.method.name'] === 'tools/call',
    )!;
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.spanContext().traceId).not.toBe(call.spanContext().traceId);
    expect(run.links.map((link) => link.context.spanId)).toEqual([call.spanContext().spanId]);
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'build_report',
      'mcp.task.id': taskId,
    });
    expect(run.status.code).not.toBe(SpanStatusCode.ERROR);
  });
});
