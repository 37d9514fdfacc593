import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessRequester } from '../../lib/cli/in-process.requester.js';
import { ProtocolRuntime } from '../../lib/protocol/protocol.runtime.js';
import { InMemoryOtel } from './in-memory-otel.js';
import { telemetryAppModule } from './telemetry.fixture.js';

/** The CLI's path (`nestjs-mcp call`): a server of the app on the SDK's in-memory pair. */
describe("the CLI's in-process requests", () => {
  let otel: InMemoryOtel;

  beforeAll(() => {
    otel = InMemoryOtel.install();
  });
  afterAll(() => otel?.uninstall());

  it('get the spans and measurements of any other transport, on a pipe', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [telemetryAppModule()] }).compile();
    await moduleRef.init();
    try {
      const requester = await InProcessRequester.connect(moduleRef.get(ProtocolRuntime), {
        request: { headers: {} },
      });
      await requester.request('tools/call', { name: 'get_weather', arguments: { city: 'Lyon' } });
      await requester.close();
    } finally {
      await moduleRef.close();
    }
    expect(otel.spans.getFinishedSpans().map((span) => span.name)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call get_weather',
    ]);
    const [call] = otel.spansOf('tools/call');
    expect(call!.attributes).toMatchObject({
      'network.transport': 'pipe',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': '2',
    });
    const points = await otel.histogram('mcp.server.operation.duration');
    expect(points.map((point) => point.attributes['mcp.method.name']).toSorted()).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
  });
});
